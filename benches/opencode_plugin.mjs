// The cost per tool call of hookx's OpenCode plugin, against a plugin that does nothing.
// Run by scripts/bench-plugin.sh (which builds the release hookx, makes a project with one Claude
// rule, installs the plugin and trusts the rule); by hand:
//   node benches/opencode_plugin.mjs PROJECT RUNS
// PROJECT holds .opencode/plugin/hookx.js. Each case calls `tool.execute.before` as OpenCode
// does (awaited, one call at a time) RUNS times after RUNS/10 warm-up calls, cases round-robin so
// that the machine's load hits them alike. Prints a Markdown table: median and p95 per call,
// what each adds over the no-op plugin, and the stated floor's check.
import { spawn } from "node:child_process";

const [project, runsArg] = process.argv.slice(2);
const RUNS = Number(runsArg) || 200;
// "A few milliseconds" (issue 28): the plugin's median cost per call over the no-op plugin.
const FLOOR_MS = 5;

const noop = { "tool.execute.before": async () => {} };
// The least any plugin that asks a program can cost: spawn `/bin/sh -c true`, pipe a payload,
// wait for it. hookx's plugin does this plus hookx's own work.
const spawnFloor = {
  "tool.execute.before": (input, output) => new Promise((resolve) => {
    const child = spawn("/bin/sh", ["-c", "true"], { stdio: ["pipe", "pipe", "pipe"] });
    child.stdout.on("data", () => {});
    child.stderr.on("data", () => {});
    child.on("close", resolve);
    // `true` may exit before reading: a closed pipe is no error here (nor in hookx's plugin).
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify({ tool_name: input.tool, tool_input: output.args }));
  }),
};
const hookx = await (await import(`${project}/.opencode/plugin/hookx.js`)).HookxPlugin({ directory: project });

const cases = [
  ["no-op plugin (the floor)", noop, "bash", { command: "ls" }],
  ["a plugin spawning `sh -c true`", spawnFloor, "bash", { command: "ls" }],
  ["hookx's plugin, 1 rule that fires (`true`)", hookx, "bash", { command: "ls" }],
  ["hookx's plugin, 1 rule whose matcher does not fire", hookx, "read", { filePath: "/etc/hostname" }],
];
const times = cases.map(() => []);
let call = 0;
async function once(i) {
  const [, hooks, tool, args] = cases[i];
  const output = { args: { ...args } };
  const t = process.hrtime.bigint();
  await hooks["tool.execute.before"]({ tool, sessionID: "bench", callID: `c${call++}` }, output);
  return Number(process.hrtime.bigint() - t) / 1e6;
}
for (let r = 0; r < Math.ceil(RUNS / 10); r++) for (let i = 0; i < cases.length; i++) await once(i);
for (let r = 0; r < RUNS; r++) for (let i = 0; i < cases.length; i++) times[i].push(await once(i));
const q = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
const base = q(times[0], 0.5);
console.log(`| case | median ms | p95 ms | added median ms | check |`);
console.log(`|---|---|---|---|---|`);
cases.forEach(([name], i) => {
  const med = q(times[i], 0.5), p95 = q(times[i], 0.95), added = med - base;
  const check = i >= 2 ? (added <= FLOOR_MS ? `ok: adds ${added.toFixed(2)} ms ≤ ${FLOOR_MS} ms` : `MISSED: adds ${added.toFixed(2)} ms > ${FLOOR_MS} ms`) : "";
  console.log(`| ${name} | ${med.toFixed(3)} | ${p95.toFixed(3)} | ${i ? "+" + added.toFixed(2) : ""} | ${check} |`);
});
const spawnAdded = q(times[1], 0.5) - base;
const hookxAdded = q(times[2], 0.5) - base;
// CPU time per call of the processes each case starts (user + sys of the children it waited
// for, from /proc/self/stat): what the call costs the machine, whatever its load, where the
// wall-clock times above also count the wait for a CPU on a busy machine. Each case in a block
// of its own, so that the clock ticks (10 ms) are counted over RUNS calls, not one.
import { readFileSync } from "node:fs";
const TICK_MS = 10;
const childTicks = () => {
  const stat = readFileSync("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[13]) + Number(fields[14]); // cutime, cstime (fields 16 and 17)
};
const cpu = cases.map((_, i) => i);
for (let i = 0; i < cases.length; i++) {
  const before = childTicks();
  for (let r = 0; r < RUNS; r++) await once(i);
  cpu[i] = ((childTicks() - before) * TICK_MS) / RUNS;
}
console.log(`\n| case | CPU ms per call (children, user + sys) |`);
console.log(`|---|---|`);
cases.forEach(([name], i) => console.log(`| ${name} | ${cpu[i].toFixed(2)} |`));
const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
// The plugin misses the floor: the run fails (scripts/bench-plugin.sh exits 1).
if (cases.some(([,], i) => i >= 2 && q(times[i], 0.5) - base > FLOOR_MS)) process.exitCode = 1;
console.log(`\nhookx's plugin adds ${hookxAdded.toFixed(2)} ms per call over the no-op plugin (${(hookxAdded / spawnAdded).toFixed(2)}× what spawning \`sh -c true\` adds); ${RUNS} calls per case, load average ${load}, ${typeof Bun === "undefined" ? `node ${process.version}` : `Bun ${Bun.version}`}.`);
