/**
 * Saved values and {{name}} references. A string that is exactly "{{name}}"
 * becomes the saved value itself (any JSON type); inside a longer string it is
 * interpolated as text. An unknown name is an error naming it.
 */
export class Values {
  private values = new Map<string, unknown>();

  set(name: string, value: unknown): void {
    this.values.set(name, value);
  }

  get(name: string): unknown {
    if (!this.values.has(name)) throw new Error(`{{${name}}} has no value: no earlier step saved it`);
    return this.values.get(name);
  }

  resolve<T>(value: T): T {
    if (typeof value === 'string') {
      const whole = /^\{\{([^{}]+)\}\}$/.exec(value);
      if (whole) return this.get(whole[1].trim()) as T;
      return value.replace(/\{\{([^{}]+)\}\}/g, (_, name: string) => String(this.get(name.trim()))) as T;
    }
    if (Array.isArray(value)) return value.map((v) => this.resolve(v)) as T;
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.resolve(v)])) as T;
    return value;
  }
}

/** Reads a dot path (`quote.id`, `events.0.step`) from a JSON value. */
export function pick(value: unknown, path: string): unknown {
  let current = value;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/**
 * Whether `actual` contains `expected`: objects by their listed keys, arrays
 * element by element (same length), everything else by equality. Returns the
 * path of the first difference, or null.
 */
export function subsetMismatch(expected: unknown, actual: unknown, path = ''): string | null {
  if (expected !== null && typeof expected === 'object') {
    if (Array.isArray(expected)) {
      if (!Array.isArray(actual) || actual.length !== expected.length) return path || '(root)';
      for (let i = 0; i < expected.length; i += 1) {
        const m = subsetMismatch(expected[i], actual[i], `${path}[${i}]`);
        if (m) return m;
      }
      return null;
    }
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return path || '(root)';
    for (const [key, value] of Object.entries(expected)) {
      const m = subsetMismatch(value, (actual as Record<string, unknown>)[key], path ? `${path}.${key}` : key);
      if (m) return m;
    }
    return null;
  }
  return expected === actual ? null : path || '(root)';
}
