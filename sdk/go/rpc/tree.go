package rpc

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// decodeTree reads get_tree's data, {"tree": [node…], "leafId": …} with node {"entry",
// "children": [node…], "label"?, "labelTimestamp"?}, token by token with a stack of its own:
// encoding/json's Unmarshal refuses anything nested more than 10,000 levels deep, and a
// branch of that many entries nests that deep. Each entry on its own is shallow and is
// decoded whole.
func decodeTree(data []byte) (*Tree, error) {
	t := &Tree{}
	if len(data) == 0 || string(data) == "null" {
		return t, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := delim(dec, '{'); err != nil {
		return nil, err
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil, err
		}
		switch key {
		case "tree":
			if t.Roots, err = decodeNodes(dec); err != nil {
				return nil, err
			}
		case "leafId":
			var leaf *string
			if err := dec.Decode(&leaf); err != nil {
				return nil, err
			}
			if leaf != nil {
				t.LeafID = *leaf
			}
		default:
			var skip json.RawMessage
			if err := skipToken(dec, &skip); err != nil {
				return nil, err
			}
		}
	}
	return t, delim(dec, '}')
}

// decodeNodes reads a list of nodes, and the nodes' children lists, without recursion.
func decodeNodes(dec *json.Decoder) ([]*TreeNode, error) {
	if err := delim(dec, '['); err != nil {
		return nil, err
	}
	var roots []*TreeNode
	// open holds the nodes whose objects are being read, innermost last; the list being
	// filled is the children of the innermost one (the roots when none is open).
	var open []*TreeNode
	list := func() *[]*TreeNode {
		if len(open) == 0 {
			return &roots
		}
		return &open[len(open)-1].Children
	}
	inList := true
	for {
		if inList {
			if dec.More() {
				if err := delim(dec, '{'); err != nil {
					return nil, err
				}
				n := &TreeNode{}
				l := list()
				*l = append(*l, n)
				open = append(open, n)
				inList = false
				continue
			}
			if err := delim(dec, ']'); err != nil {
				return nil, err
			}
			if len(open) == 0 {
				return roots, nil
			}
			// The children list ended: the rest of its node's members follow.
			inList = false
			continue
		}
		n := open[len(open)-1]
		if !dec.More() {
			if err := delim(dec, '}'); err != nil {
				return nil, err
			}
			open = open[:len(open)-1]
			inList = true
			continue
		}
		key, err := dec.Token()
		if err != nil {
			return nil, err
		}
		switch key {
		case "children":
			if err := delim(dec, '['); err != nil {
				return nil, err
			}
			inList = true
		case "entry":
			err = dec.Decode(&n.Entry)
		case "label":
			err = dec.Decode(&n.Label)
		case "labelTimestamp":
			err = dec.Decode(&n.LabelTimestamp)
		default:
			var skip json.RawMessage
			err = skipToken(dec, &skip)
		}
		if err != nil {
			return nil, err
		}
	}
}

func delim(dec *json.Decoder, want json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != want {
		return fmt.Errorf("expected %q, found %v", want, tok)
	}
	return nil
}

// skipToken passes over a member's value this decoder does not read.
func skipToken(dec *json.Decoder, into *json.RawMessage) error {
	return dec.Decode(into)
}
