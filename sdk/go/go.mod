module github.com/pig-coding-agent/pig/sdk/go

go 1.19
