import path from 'node:path';

/** The repository root, so launchers work from any working directory. */
export const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** Runtime files of the local stack (generated configs, logs); gitignored. */
export const RUN_DIR = path.join(REPO_ROOT, '.run');

/** Persistent local data (the PostgreSQL cluster); gitignored. */
export const DATA_DIR = path.join(REPO_ROOT, '.data');
