import type { PGlite } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';

type PostgresModule = Parameters<NodeFS['init']>[1];

/** The part of PGlite's Emscripten file system that sets modes (every chmod of its files passes it). */
interface ModeSetters {
  doChmod?: (stream: unknown, node: unknown, mode: number, dontFollow?: boolean) => void;
  chmod: (path: unknown, mode: number, dontFollow?: boolean) => void;
}

const GROUP_AND_OTHERS = 0o077;

/**
 * PGlite sets its files' modes itself, after creating them: the database it unpacks on first start
 * (about 970 files) 0666, `fopen`ed files 0644. A chmod is not narrowed by the umask, so the modes
 * it asks for lose their group and others bits here, inside its file system, before they reach disk.
 */
function keepModesPrivate(module: PostgresModule): void {
  const fs = module.FS as unknown as ModeSetters;
  if (typeof fs.doChmod === 'function') {
    const doChmod = fs.doChmod.bind(fs);
    fs.doChmod = (stream, node, mode, dontFollow) => doChmod(stream, node, mode & ~GROUP_AND_OTHERS, dontFollow);
    return;
  }
  // Older or newer Emscripten without doChmod: chmod is the public door (fchmod goes through it there).
  const chmod = fs.chmod.bind(fs);
  fs.chmod = (path, mode, dontFollow) => chmod(path, mode & ~GROUP_AND_OTHERS, dontFollow);
}

/** PGlite's Node file system, with every file and folder it writes private to the server's user. */
export class PrivateNodeFS extends NodeFS {
  override async init(pg: PGlite, options: PostgresModule): Promise<{ emscriptenOpts: PostgresModule }> {
    const { emscriptenOpts } = await super.init(pg, options);
    return {
      emscriptenOpts: { ...emscriptenOpts, preRun: [...(emscriptenOpts.preRun ?? []), keepModesPrivate] },
    };
  }
}
