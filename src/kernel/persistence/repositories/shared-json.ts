/**
 * The JSON text of the values a write sends as parameters, and one object per distinct text. A page of 5,000
 * pods from a few workloads carries a few hundred distinct tolerations, labels and resources: the stored pods a
 * write answers share those objects, so the snapshot, which interns values by identity before it compares
 * content (pod-store.ts), serialises each distinct value once per write instead of once per pod. The mirror's
 * initial sync serialised some 900,000 values twice (bench/ANALYSIS.md, issue 14). Shared values are read only,
 * as everywhere in the snapshot.
 */
export class SharedJson {
  private readonly byText = new Map<string, unknown>();

  /** The value's JSON text; the first value seen with a text is the one `shared` answers for it. */
  text(value: unknown): string {
    const text = JSON.stringify(value);
    if (!this.byText.has(text)) this.byText.set(text, value);
    return text;
  }

  /** The first value `text` saw with this JSON text. */
  shared<T>(text: string): T {
    return this.byText.get(text) as T;
  }
}
