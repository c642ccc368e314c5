/**
 * The lines' colours, in order, shared by the charts (canvas strokes, charts.ts) and the value
 * tables' swatches (`.series-N` in style.css, the same colours): Okabe and Ito's palette, told
 * apart with the common colour-vision deficiencies; the tables name every line besides.
 */
export const PALETTE = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9'] as const;
