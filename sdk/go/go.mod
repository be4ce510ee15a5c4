module pig/sdk

go 1.19
