import { describeEverything, everythingClientOptions, setUpEverythingClient } from './everything-suite';
import { connectThroughProxy, everythingBin } from './helpers';

describeEverything('server-everything through spillway-mcp over stdio', async (seen) => {
  const { client } = await connectThroughProxy({
    proxyArgs: ['--tool', 'simulate-research-query=150'],
    upstream: [process.execPath, everythingBin, 'stdio'],
    clientOptions: everythingClientOptions,
    setup: (client) => setUpEverythingClient(client, seen),
  });
  return client;
});
