// Types of scripts/layers.mjs for the tests that read it.
export interface Layer {
  name: string;
  why: string;
  units: string[];
}
export const LAYERS: Layer[];
export const FIRST_KOA_LAYER: string;
export function unitPattern(unit: string): string;
export function layerRules(layers?: Layer[]): Array<Record<string, unknown>>;
export function layerDiagram(layers?: Layer[]): string;
