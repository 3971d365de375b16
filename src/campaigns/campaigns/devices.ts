/** Device classes a campaign can target (a campaign's `devices[]`). */
export const DEVICES = ['mobile', 'tablet', 'desktop'] as const;
export type Device = (typeof DEVICES)[number];
