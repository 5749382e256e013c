// Expanding .xz in the worker. The build ships Python's big downloads as xz,
// about 0.9 MB less than gzip over the wire, and browsers expand only gzip and
// deflate by themselves (DecompressionStream). The decoder is xz-embedded
// compiled to wasm, from the xz-decompress npm package (build.py VENDORED puts
// it in vendor/); this module drives it, one instance per stream.
//
// The decoder's interface: four functions over one context in its memory.
//   create_context() -> ptr, where u32s at ptr are
//     [buffer size, input at, input read, input length, output at, output length]
//   supply_input(ptr, n)  n bytes were written at "input at"; n = 0: no more input
//   get_next_output(ptr)  decodes into "output at", at most a buffer's worth -> xz_ret
//   destroy_context(ptr)
// It checks each stream's CRC32 and accepts concatenated streams; the end is
// only reached once it is told there is no more input.

const XZ_OK = 0;
const XZ_STREAM_END = 1;
// xz-embedded's other return codes, in words
const TROUBLE = {
  2: "its integrity check is of an unsupported kind",
  3: "the decoder ran out of memory",
  4: "it needs more memory than the decoder allows",
  5: "it is not in the xz format",
  6: "it uses xz options the decoder does not support",
  7: "its data is damaged",
  8: "it ends too early",
};

export class XzError extends Error {}

/** A TransformStream expanding xz bytes with an instance of `decoder`, the
 * compiled WebAssembly.Module; it errors with an XzError for anything that is
 * not one whole, intact xz file. */
export function xzExpander(decoder) {
  let exports, context, bufferSize;
  const fields = () => new Uint32Array(exports.memory.buffer, context, 6); // anew after every call: memory may grow
  /** Enqueue what the last call wrote; true if it filled the output buffer. */
  const takeOutput = (controller) => {
    const [, , , , at, length] = fields();
    if (length) controller.enqueue(new Uint8Array(exports.memory.buffer, at, length).slice());
    fields()[5] = 0;
    return length === bufferSize;
  };
  const run = () => {
    const code = exports.get_next_output(context);
    if (code !== XZ_OK && code !== XZ_STREAM_END) throw new XzError(TROUBLE[code] ?? `the decoder failed (code ${code})`);
    return code;
  };
  return new TransformStream({
    async start() {
      ({ exports } = await WebAssembly.instantiate(decoder));
      context = exports.create_context();
      bufferSize = fields()[0];
    },
    transform(chunk, controller) {
      for (let at = 0; at < chunk.length; ) {
        const piece = chunk.subarray(at, at + bufferSize);
        at += piece.length;
        new Uint8Array(exports.memory.buffer, fields()[1], piece.length).set(piece);
        exports.supply_input(context, piece.length);
        // until this piece is read and the last call left room in the output
        for (;;) {
          run();
          const full = takeOutput(controller);
          const [, , read, length] = fields();
          if (!full && read === length) break;
        }
      }
    },
    flush(controller) {
      exports.supply_input(context, 0);
      for (;;) {
        const code = run();
        const full = takeOutput(controller);
        if (code === XZ_STREAM_END) break;
        if (!full) throw new XzError(TROUBLE[8]);
      }
      exports.destroy_context(context);
    },
  });
}
