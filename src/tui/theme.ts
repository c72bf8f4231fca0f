/** Colour tokens: components name a role, never a colour, so the palette changes in one place. */
export const theme = {
  brand: 'cyan',
  accent: 'cyan',
  muted: 'gray',
  heading: 'magenta',
  ok: 'green',
  warn: 'yellow',
  error: 'red',
  selectedFg: 'black',
  selectedBg: 'cyan',
  barFilled: 'cyan',
  barEmpty: 'gray',
} as const;

export type ThemeToken = keyof typeof theme;
