/**
 * Path helpers of the structural stage: paths as tools name them, compared as text after
 * normalization (no file system is consulted; the core runs in browsers too).
 */

/** Characters that make a path a pattern or an expansion rather than one file. */
const NOT_A_PATH = /[*?[\]{}$`]|^\s*$/;

/**
 * A path in a comparable form: `file://` dropped, `\` read as `/` in Windows paths, `.` segments
 * and doubled or trailing slashes removed, `..` resolved where it can be; a relative path is joined
 * to `cwd` when one is given. The working directory itself is `.`. Returns `undefined` for what is
 * not one path (globs, variables, command substitutions, empty text).
 */
export function normalizePath(raw: unknown, cwd?: string): string | undefined {
  if (typeof raw !== 'string') return undefined;
  let path = raw.trim();
  if (path.startsWith('file://')) path = decodeUri(path.slice('file://'.length));
  if (NOT_A_PATH.test(path)) return undefined;
  if (/^[A-Za-z]:\\/.test(path) || (path.includes('\\') && !path.includes('/'))) {
    path = path.replaceAll('\\', '/');
  }
  if (cwd !== undefined && !isAbsolute(path) && !path.startsWith('~')) {
    const base = normalizePath(cwd);
    if (base !== undefined) path = `${base}/${path}`;
  }
  const absolute = path.startsWith('/');
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..' && segments.length > 0 && segments.at(-1) !== '..') segments.pop();
    else if (segment === '..' && absolute) continue;
    else segments.push(segment);
  }
  if (absolute) return `/${segments.join('/')}`;
  return segments.length === 0 ? '.' : segments.join('/');
}

/** The directory holding `path` (`.` for a relative name, `/` for a top-level absolute one), or undefined at the top. */
export function parentPath(path: string): string | undefined {
  if (path === '.' || path === '/') return undefined;
  const slash = path.lastIndexOf('/');
  if (slash === -1) return path === '..' || path.startsWith('../') ? undefined : '.';
  if (slash === 0) return '/';
  return path.slice(0, slash);
}

/** `path`'s parent, its parent, … up to the top. */
export function ancestorPaths(path: string): string[] {
  const ancestors: string[] = [];
  for (let parent = parentPath(path); parent !== undefined; parent = parentPath(parent)) {
    ancestors.push(parent);
  }
  return ancestors;
}

/** `directory/name`, normalized. */
export function joinPath(directory: string, name: string): string | undefined {
  return normalizePath(isAbsolute(name) ? name : `${directory}/${name}`);
}

/** The last segment of a path. */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

function isAbsolute(path: string): boolean {
  return path.startsWith('/') || /^[A-Za-z]:\//.test(path);
}

function decodeUri(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
