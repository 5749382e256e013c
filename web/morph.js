// Redrawing a region by changing only what changed (as chessground does for
// its squares): the page still builds the region anew from the view, and
// morph() then makes the tree on screen equal to it, keeping every element
// whose tag is the same and setting only the attributes and text that
// differ. The browser then restyles and lays out only those, the focused
// square keeps its focus, and a scrolled board keeps its scroll.
//
// An element is kept only when everything that acts on it can be carried
// over. A listener added with on<event> (dom.js h(), svg.js svg()) or by
// opaque() closes over whatever its render knew, so such an element is always
// replaced by the new one. The board's targets use bind(): shared listeners
// that read the element's data, which morph() hands to the kept element.
//
// API
//   morph(live, fresh) -> the node now in the document (live, or fresh in its place)
//   opaque(el) -> el         el has listeners of its own: never keep it in place of another
//   bind(el, listeners, data) el answers events with shared `listeners` ([[type, fn]],
//                            the same functions for every element), reading `data`
//   bound(el) -> data        the data bind() gave el (or the element kept in its place)
//   kept(node) -> node       the element on screen that `node` was morphed into (else node)

const opaques = new WeakSet();
const bindings = new WeakMap(); // el -> {listeners, data}
const keptFor = new WeakMap(); // fresh element -> the live one kept in its place

export function opaque(el) {
  opaques.add(el);
  return el;
}

export function bind(el, listeners, data) {
  bindings.set(el, { listeners, data });
  for (const [type, fn] of listeners) el.addEventListener(type, fn);
  return el;
}

export function bound(el) {
  return bindings.get(el)?.data;
}

export function kept(node) {
  return keptFor.get(node) ?? node;
}

// Form controls hold what a person typed or chose in properties, not attributes.
const CONTROLS = new Set(["INPUT", "SELECT", "TEXTAREA", "OPTION"]);

function keepable(live, fresh) {
  if (live.nodeType !== fresh.nodeType) return false;
  if (live.nodeType !== Node.ELEMENT_NODE) return live.nodeType === Node.TEXT_NODE || live.nodeType === Node.COMMENT_NODE;
  return live.namespaceURI === fresh.namespaceURI && live.localName === fresh.localName
    && !opaques.has(live) && !opaques.has(fresh) && !CONTROLS.has(live.tagName);
}

export function morph(live, fresh) {
  if (!keepable(live, fresh)) {
    live.replaceWith(fresh);
    return fresh;
  }
  if (live.nodeType !== Node.ELEMENT_NODE) {
    if (live.data !== fresh.data) live.data = fresh.data;
    return live;
  }
  attributes(live, fresh);
  const binding = bindings.get(fresh);
  if (binding) bind(live, binding.listeners, binding.data);
  else bindings.delete(live); // (its shared listeners stay, and find nothing to do)
  keptFor.set(fresh, live);
  children(live, fresh);
  return live;
}

// (attribute names and sibling pointers: the attributes and childNodes
// collections make an object per item, several times slower on a board)
function attributes(live, fresh) {
  for (const name of live.getAttributeNames()) {
    if (!fresh.hasAttribute(name)) live.removeAttribute(name);
  }
  for (const name of fresh.getAttributeNames()) {
    const value = fresh.getAttribute(name);
    if (live.getAttribute(name) === value) continue;
    // (a style set through the CSSOM, which the CSP allows where a style attribute is not)
    if (name === "style") live.style.cssText = fresh.style.cssText;
    else live.setAttribute(name, value);
  }
}

function children(live, fresh) {
  let had = live.firstChild, wanted = fresh.firstChild;
  while (had && wanted) {
    const nextHad = had.nextSibling, nextWanted = wanted.nextSibling;
    morph(had, wanted);
    had = nextHad;
    wanted = nextWanted;
  }
  while (had) {
    const next = had.nextSibling;
    had.remove();
    had = next;
  }
  while (wanted) {
    const next = wanted.nextSibling;
    live.append(wanted);
    wanted = next;
  }
}
