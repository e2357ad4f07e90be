#!/bin/sh
# A minimal MCP server for the live suite (stdio, one JSON-RPC message a line; POSIX sh). Its
# one tool, `ask`, asks the client for input (`elicitation/create`, a form with one field) and
# returns the answer. Requests it does not know get an error; notifications are ignored. Once
# it has listed its tools (the client is connected), it creates the file $ELICIT_READY.
call=
while IFS= read -r line; do
    id=$(printf '%s' "$line" | sed -nE 's/.*"id":("[^"]*"|[0-9]+)[,}].*/\1/p')
    case $line in
    *'"method":"initialize"'*)
        version=$(printf '%s' "$line" | sed -n 's/.*"protocolVersion":"\([^"]*\)".*/\1/p')
        printf '{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"%s","capabilities":{"tools":{}},"serverInfo":{"name":"elicit","version":"1.0.0"}}}\n' "$id" "$version" ;;
    *'"method":"tools/list"'*)
        printf '{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"ask","description":"Asks the user for a colour.","inputSchema":{"type":"object","properties":{}}}]}}\n' "$id"
        : > "$ELICIT_READY" ;;
    *'"method":"tools/call"'*)
        call=$id
        printf '{"jsonrpc":"2.0","id":"elicit-1","method":"elicitation/create","params":{"message":"Pick a colour","requestedSchema":{"type":"object","properties":{"colour":{"type":"string"}},"required":["colour"]}}}\n' ;;
    *'"id":"elicit-1"'*)
        answer=$(printf '%s' "$line" | sed 's/\\/\\\\/g; s/"/\\"/g')
        printf '{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"ANSWERED %s"}]}}\n' "$call" "$answer" ;;
    *'"method":'*'"id":'* | *'"id":'*'"method":'*)
        printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"not here"}}\n' "$id" ;;
    esac
done
