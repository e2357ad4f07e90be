// A minimal MCP server on stdio (newline-delimited JSON-RPC) for the MCP rows (attacks
// 1280-1299): tools `run` and `Bash` (named like Claude's built-in). `node mcp_server.js NAME
// LOG [EXTRA]`: each call that runs appends `NAME TOOL TEXT` to LOG, so a test sees which calls
// ran. EXTRA (attacks rows 1860-1879): more tools, `,`-separated, each taking `text`.
const [name, log, extra] = process.argv.slice(2);
const fs = require('fs');
const rl = require('readline').createInterface({ input: process.stdin });
const send = (m) => process.stdout.write(JSON.stringify(m) + '\n');
const tool = (n, key) => ({ name: n, description: `Runs ${key} (a probe).`,
  inputSchema: { type: 'object', properties: { [key]: { type: 'string' } }, required: [key] } });
rl.on('line', (line) => {
  let m;
  try { m = JSON.parse(line); } catch { return; }
  if (m.id === undefined) return;
  const call = () => {
    const args = m.params.arguments || {};
    const text = args.text ?? args.command ?? '';
    if (log) fs.appendFileSync(log, `${name} ${m.params.name} ${text}\n`);
    return { content: [{ type: 'text', text: `ran ${name} ${m.params.name}: ${text}` }] };
  };
  const result = {
    initialize: () => ({ protocolVersion: m.params.protocolVersion, capabilities: { tools: {} },
      serverInfo: { name: name || 'probe', version: '1.0.0' } }),
    'tools/list': () => ({ tools: [tool('run', 'text'), tool('Bash', 'command')]
      .concat((extra || '').split(',').filter(Boolean).map((t) => tool(t, 'text'))) }),
    'tools/call': call,
  }[m.method];
  if (result) send({ jsonrpc: '2.0', id: m.id, result: result() });
  else send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'no such method' } });
});
