import { describeEverything, everythingClientOptions, setUpEverythingClient } from './everything-suite';
import { connectOverHttp, everythingBin } from './helpers';

describeEverything(
  'server-everything through spillway-mcp, client over Streamable HTTP (--listen)',
  async (seen) => {
    const { client } = await connectOverHttp({
      proxyArgs: ['--tool', 'simulate-research-query=150'],
      upstream: [process.execPath, everythingBin, 'stdio'],
      clientOptions: everythingClientOptions,
      setup: (client) => setUpEverythingClient(client, seen),
    });
    return client;
  },
);
