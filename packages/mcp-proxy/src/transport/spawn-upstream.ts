import type { ChildProcess } from 'node:child_process';
import crossSpawn from 'cross-spawn';

/** Options of {@link spawnUpstream}. */
export interface SpawnUpstreamOptions {
  /** The executable as the user gave it: `npx`, `uvx`, `node`, a path… */
  command: string;
  /** @default [] */
  args?: readonly string[];
  /**
   * The child's full environment (on Windows, `PATH` and `PATHEXT` in it are used to find the command).
   * @default process.env
   */
  env?: NodeJS.ProcessEnv;
  /** @default the current working directory */
  cwd?: string | undefined;
  /**
   * Where the child's stderr goes.
   * @default 'inherit'
   */
  stderr?: 'inherit' | 'pipe';
}

/**
 * Starts an upstream server as a child process, stdin and stdout piped, never through a shell string.
 * `cross-spawn` (what the MCP SDK's own stdio transport uses) does the platform work: on Windows it
 * finds the command on `PATH` with `PATHEXT` (`npx` is `npx.cmd` there), runs `.cmd`/`.bat` shims and
 * shebang scripts through `cmd.exe /d /s /c` with every argument escaped, so spaces and `& | < > ^ %`
 * in arguments stay literal; elsewhere it is `child_process.spawn` as is.
 */
export function spawnUpstream({
  command,
  args = [],
  env = process.env,
  cwd,
  stderr = 'inherit',
}: SpawnUpstreamOptions): ChildProcess {
  return crossSpawn(command, [...args], {
    env,
    ...(cwd === undefined ? {} : { cwd }),
    stdio: ['pipe', 'pipe', stderr],
    windowsHide: true,
    shell: false,
  });
}
