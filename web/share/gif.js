// An animated GIF from frames already drawn, for picture.js: one palette for
// the whole animation, every frame mapped onto it the same way, and each
// frame after the first kept only where it differs from the one before. The
// encoder is gifenc (vendor/gifenc.esm.js, MIT), which picture.js loads only
// when a GIF is made and hands in; the pixels come from picture.js too (its
// SVG frames drawn on a canvas), so this module draws nothing itself.

export const GIF_DELAY = 900; // ms each move stays on screen
export const GIF_LAST_DELAY = 3000; // ms on the last position before the loop starts again

/** Up to 255 colours for every frame of an animation, from how many pixels
 * of each colour the frames repaint (counts: 0xBBGGRR -> pixels): the exact
 * colours when there are no more than that, else gifenc's quantiser's, each
 * moved onto the commonest colour it stands for (a flat area, the paper or a
 * card, keeps its very colour). */
function paletteOf(counts, quantize) {
  const rgb = (c) => [c & 0xff, (c >> 8) & 0xff, (c >> 16) & 0xff];
  if (counts.size <= 255) return [...counts.keys()].map(rgb);
  // each colour weighed by the square root of its count, as the quantiser itself does
  const weights = [...counts].map(([c, n]) => [c, Math.ceil(Math.sqrt(n))]);
  const sample = new Uint32Array(weights.reduce((sum, [, n]) => sum + n, 0));
  let at = 0;
  for (const [c, n] of weights) sample.fill(0xff000000 | c, at, (at += n));
  const palette = quantize(new Uint8Array(sample.buffer), 255, { useSqrt: false });
  const commonest = palette.map(() => ({ n: 0, c: null }));
  const entry = nearest(palette);
  for (const [c, n] of counts) {
    const best = commonest[entry(c)];
    if (n > best.n) Object.assign(best, { n, c });
  }
  return commonest.map(({ c }, i) => (c == null ? palette[i] : rgb(c)));
}

/** A colour's nearest palette entry, one answer per colour for the whole animation. */
function nearest(palette) {
  const known = new Map();
  return (c) => {
    let found = known.get(c);
    if (found === undefined) {
      const r = c & 0xff, g = (c >> 8) & 0xff, b = (c >> 16) & 0xff;
      let best = Infinity;
      for (const [i, [pr, pg, pb]] of palette.entries()) {
        const d = (pr - r) ** 2 + (pg - g) ** 2 + (pb - b) ** 2;
        if (d < best) [best, found] = [d, i];
      }
      known.set(c, found);
    }
    return found;
  };
}

/** The GIF of `frames` frames of `width` × `height` pixels, as a Blob:
 * pixelsOf(i) gives frame i's pixels as 0xAABBGGRR words (asked twice, once
 * to count colours, once to encode); `gifenc` is the module {GIFEncoder,
 * quantize}. onFrame("encoding", done, total) says how far it is; stopped()
 * throws once the work is to stop.
 *
 * All frames share one palette and map each colour to its one nearest entry;
 * a pixel is left transparent over the frame before only where that frame
 * shows the very same palette entry. So each frame, decoded, is its own
 * picture alone. */
export async function encodeGif({ GIFEncoder, quantize }, { frames, width, height, pixelsOf }, { onFrame = null, stopped = () => {} } = {}) {
  // the colours the frames repaint, counted (the palette comes from them)
  const counts = new Map();
  let before = null;
  for (let i = 0; i < frames; i++) {
    stopped();
    const words = await pixelsOf(i);
    let colour = -1, run = 0;
    const count = () => run && counts.set(colour, (counts.get(colour) ?? 0) + run);
    for (let p = 0; p < words.length; p++) {
      if (before && words[p] === before[p]) continue; // (left transparent: never encoded)
      const c = words[p] & 0xffffff;
      if (c !== colour) {
        count();
        [colour, run] = [c, 0];
      }
      run++;
    }
    count();
    before = words;
  }
  const palette = paletteOf(counts, quantize);
  const clear = palette.length; // the transparent entry, after the colours
  const table = [...palette, [0, 0, 0]];
  const entry = nearest(palette);

  const gif = GIFEncoder();
  let previous = null; // the palette entries a decoder shows after the frame before
  for (let i = 0; i < frames; i++) {
    stopped();
    const words = await pixelsOf(i);
    const index = new Uint8Array(words.length);
    for (let p = 0, last = -1, at = 0; p < words.length; p++) {
      if (words[p] !== last) [last, at] = [words[p], entry(words[p] & 0xffffff)];
      index[p] = at;
    }
    const delay = i === frames - 1 ? GIF_LAST_DELAY : GIF_DELAY;
    if (!previous) {
      gif.writeFrame(index, width, height, { palette: table, delay, repeat: 0, dispose: 1 });
    } else {
      // A move changes a few places: the rest is left transparent over the
      // frame before (kept: dispose 1), and long runs of one index cost LZW
      // next to nothing.
      const drawn = index.slice();
      for (let p = 0; p < index.length; p++) if (index[p] === previous[p]) drawn[p] = clear;
      gif.writeFrame(drawn, width, height, { delay, transparent: true, transparentIndex: clear, dispose: 1 });
    }
    previous = index;
    onFrame?.("encoding", i + 1, frames);
    await new Promise((resolve) => setTimeout(resolve, 0)); // the page stays responsive between frames
  }
  gif.finish();
  return new Blob([gif.bytes()], { type: "image/gif" });
}
