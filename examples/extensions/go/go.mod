module pig/examples

go 1.19

require github.com/pig-coding-agent/pig/sdk/go v0.0.0

replace github.com/pig-coding-agent/pig/sdk/go => ../../../sdk/go
