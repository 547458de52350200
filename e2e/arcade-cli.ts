/**
 * The `arcade-gym` command as the e2e specs run it: in the checkout, with the environment they
 * give (the site's data folder), failing with the command's own message.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export function arcadeCli(env: NodeJS.ProcessEnv): (args: string[]) => Promise<{ stdout: string; stderr: string }> {
  return async (args) => {
    try {
      return await run('npx', ['arcade-gym', ...args], { cwd: process.cwd(), env, maxBuffer: 64 * 1024 * 1024 });
    } catch (e) {
      const err = e as { stdout?: string; stderr?: string; message: string };
      throw new Error(`arcade-gym ${args[0]} failed: ${err.stderr || err.stdout || err.message}`);
    }
  };
}
