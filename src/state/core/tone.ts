// Colour roles of the console's text; the UI maps them to colours (src/ui/theme.ts), and to nothing
// under NO_COLOR.
export type Tone = 'online' | 'idle' | 'never' | 'accent' | 'danger' | 'warning' | 'ok' | 'muted' | 'badge';
