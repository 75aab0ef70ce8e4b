import { bundleWorkflows } from './workers/create-worker.ts';
for (let i = 0; i < 3; i++) { const t = process.cpuUsage(); const w = performance.now(); const b = await bundleWorkflows(); const u = process.cpuUsage(t); console.log(`call ${i}: ${((u.user+u.system)/1000).toFixed(0)} CPU-ms, ${(performance.now()-w).toFixed(0)} ms, ${b.code.length} bytes`); }
