import { readFile } from 'node:fs/promises';
import { setupCodeFile } from '../ownership/setup-code.js';
import type { TestClient } from './http-client.js';

/**
 * Makes the client's signed-in user the server's owner the way a real owner does: the setup code
 * from the server's data folder, entered through `POST /api/setup/claim`.
 */
export async function claimServer(server: { config: { dataDir: string } }, client: TestClient): Promise<void> {
  const code = (await readFile(setupCodeFile(server.config.dataDir), 'utf8')).trim();
  const response = await client.request('/api/setup/claim', { method: 'POST', json: { code } });
  if (response.status !== 200) throw new Error(`claiming the server failed: ${response.status} ${await response.text()}`);
}
