// A minimal MCP server on stdio (newline-delimited JSON-RPC): one tool, `echo`.
const rl = require('readline').createInterface({ input: process.stdin });
const send = (m) => process.stdout.write(JSON.stringify(m) + '\n');
rl.on('line', (line) => {
  let m;
  try { m = JSON.parse(line); } catch { return; }
  if (m.id === undefined) return;
  const result = {
    initialize: () => ({ protocolVersion: m.params.protocolVersion, capabilities: { tools: {} },
      serverInfo: { name: 'probe', version: '1.0.0' } }),
    'tools/list': () => ({ tools: [{ name: 'echo', description: 'Echoes its text.',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }] }),
    'tools/call': () => ({ content: [{ type: 'text', text: 'echo: ' + (m.params.arguments || {}).text }] }),
  }[m.method];
  if (result) send({ jsonrpc: '2.0', id: m.id, result: result() });
  else send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'no such method' } });
});
