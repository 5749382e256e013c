// When work runs relative to the frames the browser paints. The game view puts
// what is not the board (the panels beside it, the address) after the paint
// of the frame that shows a move, so that frame is not made late by them.

/** Call `fn` in the first task after the current frame's rendering (call it
 * from an animation-frame callback): a message to ourselves, which unlike
 * setTimeout(0) is never held back by timer clamping. */
export function afterRendering(fn) {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => { channel.port1.close(); fn(); };
  channel.port2.postMessage(null);
}

/** Call `fn` once the next frame is painted, or after 100 ms where no frame
 * comes (a hidden tab): it may be called twice, so it does its work once. */
export function onceFramePainted(fn) {
  requestAnimationFrame(() => afterRendering(fn));
  setTimeout(fn, 100);
}
