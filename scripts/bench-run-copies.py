#!/usr/bin/env python3
"""`hookx run --host claude` instruction counts (callgrind) of two hookx builds, side by side, on
projects of N trusted rules and on the README's story converted to Gemini and Codex (copies, so
the plan of "each rule once" is built). Each binary runs three times in a row; the third count is
shown (the first refills the parse cache, which each build keys to itself). Routes carry `--home`, as install writes them.
Usage: scripts/bench-run-copies.py BEFORE_HOOKX AFTER_HOOKX"""
import json, os, subprocess, sys, shutil, re
root=os.path.join(os.environ.get("TMPDIR","/tmp"),"hookx-bench-run-copies")
shutil.rmtree(root, ignore_errors=True)
if len(sys.argv) != 3:
    sys.exit("usage: scripts/bench-run-copies.py BEFORE_HOOKX AFTER_HOOKX (release builds)")
bins={"before":sys.argv[1],"after":sys.argv[2]}
EVENTS=["PostToolUse","UserPromptSubmit","SessionStart","Stop","PreToolUse"]
def bricks(n):
    by={e:[] for e in EVENTS}
    for i in range(n-1):
        e=EVENTS[i%5]
        m = "bash|write_file" if i%2 else "^(bash|grep_search).*$"
        by[e].append({"matcher":m if e in("PreToolUse","PostToolUse") else "x","hooks":[{"type":"command","command":f"true {i}"}]})
    by["PreToolUse"].append({"matcher":"bash","hooks":[{"type":"command","command":"true"}]})
    return json.dumps({"hooks":{e:v for e,v in by.items() if v}})
def project(name, files, trust_bin):
    d=f"{root}/{name}/p"; h=f"{root}/{name}/h"
    os.makedirs(d); os.makedirs(h)
    for rel,text in files:
        p=os.path.join(d,rel); os.makedirs(os.path.dirname(p),exist_ok=True); open(p,"w").write(text)
    env=dict(os.environ, HOME=h, HOOKX_HOME=h)
    subprocess.run([trust_bin,"trust","--yes"],cwd=d,env=env,capture_output=True)
    return d,h
def count(b,d,h):
    payload=json.dumps({"session_id":"s","transcript_path":"","cwd":d,"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"permission_mode":"default"})
    env={"HOME":h,"PATH":"/usr/bin:/bin","CLAUDE_PROJECT_DIR":d}
    r=subprocess.run(["valgrind","--tool=callgrind","--callgrind-out-file=/dev/null","--trace-children=no",b,"run","--host","claude","--event","PreToolUse","--home",h],cwd=d,env=env,input=payload.encode(),capture_output=True)
    m=re.search(rb"Collected : (\d+)",r.stderr)
    return int(m.group(1)) if m else None
story_settings=json.dumps({"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"true guard"}]}],"PostToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","command":"true fmt"}]}],"UserPromptSubmit":[{"hooks":[{"type":"command","command":"true log"}]}],"Stop":[{"hooks":[{"type":"command","command":"true stop"}]}]}})
cases=[]
for n in (1,10,100,1000):
    cases.append((f"run --host claude, {n} rules (Bricks file)", project(f"rules-{n}",[(".bricks/hooks.json",bricks(n))],bins["after"])))
cases.append(("run --host claude, 1 rule + a .claude/settings.json of 4 rules",project("withclaude",[(".bricks/hooks.json",bricks(1)),(".claude/settings.json",story_settings)],bins["after"])))
# the story: converted to gemini,codex (copies with records), run under claude
d,h=project("story",[(".claude/settings.json",story_settings),(".bricks/hooks.json",bricks(1))],bins["after"])
env=dict(os.environ,HOME=h,HOOKX_HOME=h)
subprocess.run([bins["after"],"convert",".claude/settings.json","--to","gemini,codex","--write","--hookx","hookx"],cwd=d,env=env,capture_output=True)
subprocess.run([bins["after"],"trust","--yes"],cwd=d,env=env,capture_output=True)
cases.append(("run --host claude, the story converted to Gemini and Codex (copies: plan built)",(d,h)))
print("| case | before | after | after/before |")
print("|---|---|---|---|")
for label,(d,h) in cases:
    b=[count(bins["before"],d,h) for _ in range(3)][-1]
    a=[count(bins["after"],d,h) for _ in range(3)][-1]
    print(f"| {label} | {b:,} | {a:,} | {a/b:.3f} |")
