import type { ShellRedirect } from './shell-command';
import type { ShellEffectCollector } from './shell-effect-collector';

/**
 * Reads a command's redirections into `collector`: output redirections write (or, with `>>`, edit)
 * their target, and redirecting stdout means the result shows none of the command's output.
 * Returns the here-document (or here-string) the command reads, if any; `false` when a
 * redirection has no target the mapping can see (the call is `other`).
 */
export function shellRedirectEffects(
  redirects: readonly ShellRedirect[],
  collector: ShellEffectCollector,
): { heredoc: string | undefined } | false {
  let heredoc: string | undefined;
  for (const redirect of redirects) {
    if (redirect.op === '<<' || redirect.op === '<<-' || redirect.op === '<<<') {
      heredoc = redirect.op === '<<<' ? redirect.target?.value : redirect.body;
      continue;
    }
    if (redirect.op === '<' || redirect.op === '<>') continue;
    if (redirect.op === '>&' && /^\d+$|^-$/.test(redirect.target?.value ?? '')) continue;
    const target = redirect.target;
    if (target === undefined) return false;
    if (redirect.fd === undefined || redirect.fd === '1' || redirect.op.startsWith('&')) {
      collector.redirectOutput();
    }
    if (/^\/dev\//.test(target.value)) continue;
    collector.add(redirect.op.endsWith('>>') ? 'edit' : 'write', target);
  }
  return { heredoc };
}
