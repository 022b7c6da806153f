/**
 * Okabe & Ito's eight colours, told apart with every common colour-vision deficiency
 * (jfly.uni-koeln.de/color). Charts give each series one of these, fixed per series, never
 * reused within a chart; past eight, series need a second cue (hatching, labels).
 */
export const OKABE_ITO = {
  orange: "#E69F00",
  skyBlue: "#56B4E9",
  bluishGreen: "#009E73",
  yellow: "#F0E442",
  blue: "#0072B2",
  vermillion: "#D55E00",
  reddishPurple: "#CC79A7",
  black: "#000000",
} as const;
