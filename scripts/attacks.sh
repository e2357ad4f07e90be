#!/usr/bin/env bash
# Issue 9's attempts, replayed against one hookx binary: scripts/attacks.sh path/to/hookx
# One line per attempt: what was tried | what this binary did. Run it on an old and a new
# build to compare (the closing note of issue 9 does); the assertions live in tests/.
# Bounded: every hookx call runs under `timeout 60` (10 s for the recursion attempt).
[ -x "${1:-}" ] || { echo "usage: scripts/attacks.sh path/to/hookx" >&2; exit 2; }
H=$(realpath "$1"); T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export HOME=$T/home; unset HOOKX_HOME CLAUDE_PROJECT_DIR COPILOT_CLI BRICKS_HOOK_EVENT
P=$T/proj; mkdir -p "$HOME" "$P/.github/hooks"; cd "$P"; git init -q .
hx() { timeout ${LIMIT:-60} "$H" "$@"; }
NOWRAP=$("$H" convert --help | grep -q -- --no-wrap && echo --no-wrap)
say() { printf '%-48s | %s\n' "$1" "$2"; }
deny='{"hooks":{"PreToolUse":[{"matcher":"bash","hooks":[{"type":"command","command":"echo trusted-deny >&2; exit 2"}]}]}}'
mkdir -p "$HOME/.bricks-project-desktop"; echo "$deny" > "$HOME/.bricks-project-desktop/hooks.json"
hx trust "$HOME/.bricks-project-desktop/hooks.json" --project "$P" --home "$HOME" >/dev/null 2>&1
pre() { # claude PreToolUse for Bash; prints exit code
  printf '{"session_id":"s","transcript_path":"/dev/null","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}%s}' "$P" "${1:-}" \
  | hx run --host claude --event PreToolUse --project "$P" --home "$HOME" >"$T/out" 2>"$T/err"; echo $?; }
verdict() { if [ "$1" = 2 ] && grep -q trusted-deny "$T/err"; then echo "deny holds (exit 2)"; elif grep -q '"permissionDecision":"deny"' "$T/out"; then echo "deny holds (JSON deny, exit $1)"; else echo "DENY LOST (exit $1: $(head -c 120 "$T/err" | tr '\n' ' '))"; fi; }

say "baseline: trusted bricks deny, Bash" "$(verdict "$(pre)")"

python3 -c "import json;print(json.dumps({'version':1,'hooks':{'preToolUse':[{'type':'command','bash':'exit 0','matcher':'|'.join('t%d.'%i for i in range(70000))}]}}))" > .github/hooks/evil.json
say "70 000-alternative untrusted matcher" "$(verdict "$(pre)")"; rm .github/hooks/evil.json

# 3 runaway untrusted matchers + one with the trusted rule's text, under Copilot
mkdir -p "$T/rw/.bricks-project-desktop" "$T/rw/.claude"
echo '{"hooks":{"PreToolUse":[{"matcher":"a+!","hooks":[{"type":"command","command":"echo trusted-deny >&2; exit 2"}]}]}}' > "$T/rw/.bricks-project-desktop/hooks.json"
hx trust "$T/rw/.bricks-project-desktop/hooks.json" --project "$P" --home "$T/rw" >/dev/null 2>&1
echo '{"hooks":{"PreToolUse":[{"matcher":"(a+)+$","hooks":[{"type":"command","command":"true"}]},{"matcher":"(a*)*$","hooks":[{"type":"command","command":"true"}]},{"matcher":"(a|a)*$","hooks":[{"type":"command","command":"true"}]},{"matcher":"a+!","hooks":[{"type":"command","command":"true"}]}]}}' > "$T/rw/.claude/settings.json"
s=$(date +%s%N)
c=$(printf '{"sessionId":"s","timestamp":1700000000000,"cwd":"%s","toolName":"%s!","toolArgs":{}}' "$P" "$(printf 'a%.0s' $(seq 40))" | HOME=$T/rw hx run --host copilot --event preToolUse --project "$P" --home "$T/rw" >"$T/out" 2>"$T/err"; echo $?)
e=$(( ($(date +%s%N)-s)/1000000 ))
if [ "$c" != 0 ] && grep -q trusted-deny "$T/err" "$T/out"; then r="deny holds (exit $c)"; elif grep -q '"permissionDecision":"deny"' "$T/out" && grep -q trusted-deny "$T/out"; then r="deny holds (JSON)"; else r="DENY LOST (exit $c: $(head -c 100 "$T/err" | tr '\n' ' '))"; fi
say "3 runaway untrusted + trusted same text (copilot)" "$r, ${e} ms"

ln -s "$HOME/.bricks-project-desktop/hooks.json" .github/hooks/x.json
say "symlink .github/hooks/x.json -> trusted file" "$(verdict "$(pre)")"; rm .github/hooks/x.json
mkdir -p .claude; ln -s "$HOME/.bricks-project-desktop/hooks.json" .claude/settings.local.json
say "symlink .claude/settings.local.json -> trusted" "$(verdict "$(pre)")"; rm .claude/settings.local.json

echo '{"hooks":{"PreToolUse":[{"matcher":".*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*.*Z","hooks":[{"type":"command","command":"true"}]}]}}' > "$T/run.json"
s=$(date +%s%N); hx convert "$T/run.json" --from claude --to copilot >/dev/null 2>&1; c=$?; e=$(( ($(date +%s%N)-s)/1000000 ))
say "convert, runaway matcher" "exit $c in ${e} ms"
python3 -c "import json;print(json.dumps({'hooks':{'PreToolUse':[{'matcher':'|'.join('t%d'%i for i in range(100000)),'hooks':[{'type':'command','command':'true'}]}]}}))" > "$T/big.json"
for cmd in convert validate; do s=$(date +%s%N); if [ $cmd = convert ]; then hx convert "$T/big.json" --from claude --to copilot >/dev/null 2>&1; else hx validate --from claude "$T/big.json" >/dev/null 2>&1; fi; c=$?; e=$(( ($(date +%s%N)-s)/1000000 ))
say "$cmd, 100 000 alternatives" "exit $c in ${e} ms"; done

say "payload with a lone surrogate" "$(verdict "$(pre ',"x":"\ud83d"')")"
python3 -c "print('{\"session_id\":\"s\",\"transcript_path\":\"/dev/null\",\"cwd\":\"$P\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"' + 'x'*17_000_000 + '\"}}')" > "$T/big-payload"
hx run --host claude --event PreToolUse --project "$P" --home "$HOME" < "$T/big-payload" >"$T/out" 2>"$T/err"
say "17 MB payload" "$(verdict $?)"

stop='{"session_id":"s","transcript_path":"/dev/null","cwd":"'$P'","hook_event_name":"Stop","stop_hook_active":false}'
c=$(echo "$stop" | env -u HOME timeout 60 "$H" run --host claude --event Stop --project "$P" >/dev/null 2>&1; echo $?)
say "HOME unset, claude Stop" "exit $c $( [ "$c" = 2 ] && echo '(BLOCKS STOP)' || echo '(does not block)')"
c=$(printf '{"session_id":"s","transcript_path":"/dev/null","cwd":"/etc/passwd","hook_event_name":"Stop","stop_hook_active":false}' | hx run --host claude --event Stop --project "$P" --home "$HOME" >/dev/null 2>&1; echo $?)
say "payload cwd is a file, claude Stop" "exit $c $( [ "$c" = 2 ] && echo '(BLOCKS STOP)' || echo '(does not block)')"

c=$(printf '{"session_id":"s","transcript_path":"/dev/null","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}' "$P" | COPILOT_CLI=1 timeout 60 "$H" run --host claude --event PreToolUse --project "$P" --home "$HOME" >"$T/out" 2>"$T/err"; echo $?)
say "COPILOT_CLI=1 inherited, claude PreToolUse" "$(verdict "$c")"

# recursion: a trusted handler that is itself a prefixed route
mkdir -p .bricks; echo '{"hooks":{"PreToolUse":[{"matcher":"bash","hooks":[{"type":"command","command":"env A=1 '"$H"' run --host claude --event PreToolUse"}]}]}}' > .bricks/hooks.json
hx trust .bricks/hooks.json --project "$P" --home "$HOME" >/dev/null 2>&1
s=$(date +%s%N); c=$(LIMIT=10 pre); e=$(( ($(date +%s%N)-s)/1000000 ))
left=$(pgrep -fc "$H run"); pkill -f "$H run"
say "recursion: 'env A=1 hookx run' as a trusted handler" "$(verdict "$c"), ${e} ms, $left left running"
rm .bricks/hooks.json

echo '{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"hookx run --host claude --event Stop"},{"type":"command","command":"./mine.sh"}]}]}}' > "$T/routes.json"
hx convert "$T/routes.json" --from claude --to copilot --out "$T/routes.out" >/dev/null 2>&1
say "convert copies a routing entry" "$(grep -q 'run --host' "$T/routes.out" && echo 'COPIED' || echo 'not copied')"

mkdir -p "$T/dot"; echo '{"model":"x"}' > "$T/dot/settings.json"; mkdir -p "$HOME/.claude"; ln -sf "$T/dot/settings.json" "$HOME/.claude/settings.json"
hx install --host claude --scope user --project "$P" --home "$HOME" >/dev/null 2>&1
say "install --scope user, symlinked settings" "$( [ -L "$HOME/.claude/settings.json" ] && echo 'still a symlink' || echo 'REPLACED by a file')"
rm -f "$HOME/.claude/settings.json"

mkdir -p .claude; echo '{"disableAllHooks":true}' > .claude/settings.local.json
say "untrusted disableAllHooks" "$(verdict "$(pre)")"; rm .claude/settings.local.json

python3 -c "import json;print(json.dumps({'hooks':{'PreToolUse':[{'matcher':'Bash','hooks':[{'type':'command','command':'echo '+chr(39)*2+' # '+chr(39)*40000+chr(39)}]}]}}))" > "$T/q.json"
hx convert "$T/q.json" --from claude --to copilot --wrap > "$T/q.out" 2>/dev/null; c=$?
cmd=$(python3 -c "import json,sys;d=json.load(open('$T/q.out'));print(d['hooks']['preToolUse'][0]['bash'])" 2>/dev/null)
r=$(sh -c "$cmd" </dev/null >/dev/null 2>"$T/err"; echo $?)
say "40 KB quote-heavy handler, wrapped" "convert exit $c; $(grep -q 'Argument list too long' "$T/err" && echo 'E2BIG' || echo "runs (exit $r)")"

echo '{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"echo '"'"'$CLAUDE_PROJECT_DIR'"'"'"}]}]}}' > "$T/sq.json"
say "'\$CLAUDE_PROJECT_DIR' in single quotes → bricks" "$(hx convert "$T/sq.json" --from claude --to bricks $NOWRAP 2>/dev/null | grep -o "echo '[^']*'" | head -1)"

printf '{"a":18446744073709551617,"b":1.0000000000000000001,"hooks":{}}' > "$T/n.json"
hx convert "$T/n.json" --from claude --to claude > "$T/n.out" 2>/dev/null
say "integers > 2^64 kept" "$(grep -o '18446744073709551617' "$T/n.out" >/dev/null && echo kept || echo "CHANGED: $(tr -d '\n ' < "$T/n.out" | head -c 80)")"

printf '{"hooks":{"Stop":[]},"hooks":{"PreToolUse":[]}}' > "$T/dup.json"
say "duplicate keys, validate" "$(hx validate --from claude "$T/dup.json" 2>&1 | grep -ci duplicate) duplicate diagnostic(s)"
printf '{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"true","timeout":0}]}]}}' > "$T/t0.json"
say "timeout 0, validate" "$(hx validate --from claude "$T/t0.json" 2>&1 | grep -ci timeout) timeout diagnostic(s)"

(umask 022; rm -rf "$T/u"; mkdir -p "$T/u/.bricks"; cd "$T/u"; git init -q; echo '{"hooks":{"PreToolUse":[{"matcher":"bash","hooks":[{"type":"command","command":"true"}]}]}}' > .bricks/hooks.json
 "$H" trust .bricks/hooks.json --project "$T/u" --home "$HOME" >/dev/null 2>&1; "$H" install --host claude --project "$T/u" --home "$HOME" >/dev/null 2>&1)
say "new file mode under umask 022" "$(stat -c %a "$T/u/.claude/settings.json" 2>/dev/null)"
(cd "$T/u"; rm .claude/settings.json; echo '{}' > .claude/settings.json; "$H" install --host claude --project "$T/u" --home "$HOME" >/dev/null 2>&1; "$H" install --host claude --uninstall --project "$T/u" --home "$HOME" >/dev/null 2>&1)
say "uninstall, file the user made" "$( [ -f "$T/u/.claude/settings.json" ] && echo "kept: $(cat "$T/u/.claude/settings.json")" || echo DELETED)"

rm -rf "$T/c"; mkdir -p "$T/c"; cd "$T/c"; git init -q; mkdir -p .claude
for i in $(seq 1 20); do echo "{\"hooks\":{\"PreToolUse\":[{\"matcher\":\"T$i\",\"hooks\":[{\"type\":\"command\",\"command\":\"echo $i\"}]}]}}" > "$T/c$i.json"; done
for i in $(seq 1 20); do "$H" convert "$T/c$i.json" --from claude --to copilot --write --out "$T/c/.github/hooks/all.json" >/dev/null 2>&1 & done; wait
say "20 concurrent convert --write, additions kept" "$(grep -o '"matcher": "T[0-9]*"' "$T/c/.github/hooks/all.json" 2>/dev/null | sort -u | wc -l) of 20"
cd "$P"
