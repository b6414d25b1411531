/** A variant that was produced and stored. */
export interface StoredVariant {
  key: string;
  width: number;
  height: number;
  size: number;
  mimeType: string;
  checksumSha256: string;
}

/**
 * A variant that cannot be made from its original (it does not decode, or is over the pixel limit or the decode
 * budget): not tried again for the same key. A failure of the temporary files or of the storage records nothing, so
 * the variant is tried again later.
 */
interface FailedVariant {
  key: string;
  failed: true;
}

export type VariantState = StoredVariant | FailedVariant;

/**
 * What a file record knows of its variants, by name (the `variants` column). The key of each says which original
 * and which declaration it was made for, so a variant made before the declaration changed is seen as missing.
 */
export type VariantStates = Record<string, VariantState>;

export function isStored(state: VariantState | undefined): state is StoredVariant {
  return state !== undefined && !('failed' in state);
}

/** Every storage key a record's bytes live under: the original's and its variants'. */
export function storedKeysOf(record: { storageKey: string; variants?: VariantStates | null }): string[] {
  const variants = Object.values(record.variants ?? {}).filter(isStored);
  return [record.storageKey, ...variants.map((variant) => variant.key)];
}

/**
 * The key of the original a stored key belongs to: itself for an original (`product/7/<uuid>`), the part before the
 * first dot of the last segment for a variant (`product/7/<uuid>.thumb-<fingerprint>.webp`) or a temporary file.
 */
export function originalKeyOf(key: string): string {
  const slash = key.lastIndexOf('/');
  const dot = key.indexOf('.', slash + 1);
  return dot < 0 ? key : key.slice(0, dot);
}
