module pig/examples/go

go 1.19

require pig/sdk v0.0.0

replace pig/sdk => ../../sdk/go
