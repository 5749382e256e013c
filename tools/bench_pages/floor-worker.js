// tools/bench_pages/floor.js's worker: answers each message at once with a few kB (a move's answer is a few kB).
onmessage = (event) => postMessage(JSON.parse(JSON.stringify({ n: event.data, pad: "x".repeat(3000) })));
