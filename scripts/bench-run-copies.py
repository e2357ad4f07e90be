#!/usr/bin/env python3
"""`hookx run --host claude` instruction counts (callgrind) of hookx builds, side by side, on
projects of N trusted rules and on the README's story converted to Gemini and Codex (copies, so
the plan of "each rule once" is built). Each binary runs three times in a row; the third count is
shown (the first refills the parse cache, which each build keys to itself). Routes carry `--home`, as install writes them.
With two handlers or more, `hookx run` forks a worker that runs them (`spawn::split`); the count
shown is the worker's, which callgrind counts from the start (the fork inherits the count), so
that every row counts all hookx did for the event. (The script once took whichever process
printed first: its 100- and 1000-rule rows swung by up to 1.7× from run to run.)
The last build is compared with each earlier one.
Usage: scripts/bench-run-copies.py HOOKX HOOKX... (release builds; the last is the one measured)"""
import json, os, subprocess, sys, shutil, re, shlex
root=os.path.join(os.environ.get("TMPDIR","/tmp"),"hookx-bench-run-copies")
shutil.rmtree(root, ignore_errors=True)
if len(sys.argv) < 3:
    sys.exit("usage: scripts/bench-run-copies.py HOOKX HOOKX... (release builds; the last is the one measured)")
names=sys.argv[1:]
bins={"after":names[-1]}
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
def count(b,d,h,args=None):
    payload=json.dumps({"session_id":"s","transcript_path":"","cwd":d,"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"permission_mode":"default"})
    env={"HOME":h,"PATH":"/usr/bin:/bin","CLAUDE_PROJECT_DIR":d}
    args=args or ["run","--host","claude","--event","PreToolUse","--home",h]
    r=subprocess.run(["valgrind","--tool=callgrind","--callgrind-out-file=/dev/null","--trace-children=no",b]+args,cwd=d,env=env,input=payload.encode(),capture_output=True)
    counts=[int(n) for n in re.findall(rb"Collected : (\d+)",r.stderr)]
    return max(counts) if counts else None
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
# the plan at scale: 200 Bash guards, each in three files (600 copies for the plan)
many=json.dumps({"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":f"true g{i}"}]} for i in range(200)]}})
d,h=project("many",[(".claude/settings.json",many),(".bricks/hooks.json",bricks(1))],bins["after"])
env=dict(os.environ,HOME=h,HOOKX_HOME=h)
subprocess.run([bins["after"],"convert",".claude/settings.json","--to","gemini,codex","--write","--hookx","hookx"],cwd=d,env=env,capture_output=True)
subprocess.run([bins["after"],"trust","--yes"],cwd=d,env=env,capture_output=True)
cases.append(("run --host claude, 200 Bash guards converted to Gemini and Codex (600 copies)",(d,h)))
# the user's route in a ~/.claude/settings.json of 5 KB (permissions, env, the routes install
# writes on nine events): `run` reads the timeout of its own entry (attacks row 223)
d,h=project("routed",[(".bricks/hooks.json",bricks(1))],bins["after"])
route=lambda e: {"matcher":"*","hooks":[{"type":"command","command":f"hookx run --host claude --event {e} --home {h}","timeout":605,"hookx":{"created":"entry"}}]}
user={"model":"opus","env":{"DISABLE_TELEMETRY":"1"},
      "permissions":{"allow":[f"Bash(git {c}:*)" for c in ["status","diff","log","add","commit","push","pull","fetch","checkout","branch","stash","show","rebase","merge"]]+[f"Bash(npm run {c}:*)" for c in ["test","build","lint","dev","start"]]+["Read(~/**)","WebFetch(domain:github.com)"],"deny":["Bash(rm -rf /:*)","Read(./.env)"]},
      "statusLine":{"type":"command","command":"~/.claude/statusline.sh"},
      "hooks":{e:[route(e)] for e in ["PreToolUse","PostToolUse","UserPromptSubmit","Stop","SubagentStop","SessionStart","SessionEnd","Notification","PreCompact"]}}
user["hooks"]["PreToolUse"].append({"matcher":"Bash","hooks":[{"type":"command","command":"~/.claude/hooks/guard.sh"}]})
os.makedirs(f"{h}/.claude"); open(f"{h}/.claude/settings.json","w").write(json.dumps(user,indent=2))
cases.append(("run --host claude, 1 rule, the user's route in a 5 KB ~/.claude/settings.json",(d,h)))
# The run-time claim (src/claim.rs): one Bricks rule in the project's file and another in the user's,
# hookx installed (`install --host claude`) in the user's file only (one route: no claim), and in
# both (each route claims the event; the project's, run after the user's, repeats its answer).
# Each route runs as its line in the settings file says, the program replaced by each build.
def claimed(name, scopes):
    d,h=project(name,[(".bricks/hooks.json",bricks(1))],bins["after"])
    os.makedirs(f"{d}/.git"); os.makedirs(f"{h}/.bricks-project-desktop"); open(f"{h}/.bricks-project-desktop/hooks.json","w").write(bricks(1).replace('"true"','"true user"'))
    env=dict(os.environ,HOME=h,HOOKX_HOME=h)
    subprocess.run([bins["after"],"trust","--yes"],cwd=d,env=env,capture_output=True)
    lines=[]
    for scope,at in scopes:
        subprocess.run([bins["after"],"install","--host","claude","--scope",scope,"--hookx","hookx"],cwd=d,env=env,capture_output=True)
        lines.append(shlex.split(json.load(open(f"{at(d,h)}/.claude/settings.json"))["hooks"]["PreToolUse"][0]["hooks"][0]["command"])[1:])
    return d,h,lines
user_scope=("user",lambda d,h: h)
project_scope=("project",lambda d,h: d)
claim_one=claimed("claim-one",[user_scope])
claim_both=claimed("claim-both",[user_scope,project_scope])
short=[os.path.basename(n) for n in names]
print("| case | "+" | ".join(short)+" | "+" | ".join(f"{short[-1]} / {n}" for n in short[:-1])+" |")
print("|---"*(2*len(names))+"|")
def row(label,got):
    print(f"| {label} | "+" | ".join(f"{n:,}" for n in got)+" | "+" | ".join(f"{got[-1]/n:.3f}" for n in got[:-1])+" |")
for label,(d,h) in cases:
    row(label,[[count(b,d,h) for _ in range(3)][-1] for b in names])
d,h,(user_route,)=claim_one
row("run --host claude, 1 rule each in the user's and the project's file, hookx in the user's file only (no claim)",[[count(b,d,h,user_route) for _ in range(3)][-1] for b in names])
d,h,(user_route,project_route)=claim_both
pairs={b:[(count(b,d,h,user_route),count(b,d,h,project_route)) for _ in range(3)][-1] for b in names}
row("the same, hookx in both files: the user's route (claims the event)",[pairs[b][0] for b in names])
row("the same, hookx in both files: the project's route after it (repeats its answer)",[pairs[b][1] for b in names])
