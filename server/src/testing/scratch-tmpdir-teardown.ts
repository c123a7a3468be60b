import { removeScratchTmpdir } from './scratch-tmpdir.js';

/** vitest global setup: nothing to set up (vitest.config.ts did); removes the scratch folder after. */
export default function setup(): () => void {
  return removeScratchTmpdir;
}
