import { z } from 'zod';

const hex = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'Colours are written as #rrggbb');

export const colorsSchema = z.object({
  menuColor: hex,
  backgroundColor: hex,
  foregroundColor: hex,
  accentColor: hex,
  linkColor: hex,
  errorColor: hex,
  menuColor2: hex,
});
export type Colors = z.infer<typeof colorsSchema>;
export type ColorKey = keyof Colors;

export const DEFAULT_COLORS: Colors = {
  menuColor: '#001f0f',
  backgroundColor: '#303330',
  foregroundColor: '#bfdfcf',
  accentColor: '#5f7f6f',
  linkColor: '#6495ed',
  errorColor: '#fa8072',
  menuColor2: '#000000',
};

export const navbarStyleSchema = z.object({ clickToToggle: z.boolean() });
export type NavbarStyle = z.infer<typeof navbarStyleSchema>;

export const splashOutput = z.object({ display: z.boolean() });
export type Splash = z.infer<typeof splashOutput>;

/** The old client sends the year it was dismissed in; it is accepted and ignored. */
export const dismissSplashInput = z.object({ year: z.unknown().optional() }).optional();
