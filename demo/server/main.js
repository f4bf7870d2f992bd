/**
 * `npm start` entry: serve the demo site in the foreground on HOST:PORT
 * (defaults 127.0.0.1 and 5173) until interrupted.
 */
import { startDemoServer } from './start.js';

const host = process.env.HOST || '127.0.0.1';
const port = process.env.PORT ? Number(process.env.PORT) : 5173;
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`capell-webmcp demo: PORT must be an integer from 0 to 65535, got ${process.env.PORT}`);
  process.exit(1);
}

const demo = await startDemoServer({ host, port });
console.log(`capell-webmcp demo: ${demo.url}/ (demo agent: ${demo.agentUrl}/)`);

for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.once(signal, () => {
    demo.close().then(
      () => process.exit(0),
      (error) => {
        console.error('capell-webmcp demo: close failed', error);
        process.exit(1);
      },
    );
  });
}
