import { ScratchBytes } from './scratch-bytes';

describe('ScratchBytes', () => {
  it.each([0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 13_661, 150_000, 2 ** 31, 2 ** 53 - 1])(
    'writes the count %d as JSON.stringify does',
    (n) => {
      const out = new ScratchBytes();
      out.putCount(n);
      expect(out.result().toString()).toBe(JSON.stringify(n));
    },
  );

  it('grows past the kept buffer and returns exactly what was written', () => {
    const out = new ScratchBytes();
    const piece = Buffer.from('{"k":');
    let expected = '';
    for (let i = 0; i < 20_000; i++) {
      out.put(piece);
      out.putCount(i);
      out.putString(`n-${i}\u00e9`);
      expected += `{"k":${i}${JSON.stringify(`n-${i}\u00e9`)}`;
    }
    expect(out.result().equals(Buffer.from(expected))).toBe(true);
  });
});
