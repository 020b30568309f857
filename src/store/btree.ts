/**
 * The B+ tree of sorted-btree, imported once. The package is CommonJS with `exports.default`: Node's
 * ESM loader hands us `module.exports` (the class one level down) while Vite's interop hands us the
 * class itself. Accept both.
 */
import btreeModule from 'sorted-btree';

type BTreeClass = typeof btreeModule.default;
export type BTreeOf<K, V> = InstanceType<typeof btreeModule.default<K, V>>;

export const BTree: BTreeClass = (btreeModule as unknown as { default?: BTreeClass }).default ?? (btreeModule as unknown as BTreeClass);
