/**
 * What a Chromium renderer's memory is made of: one `memory-infra` dump (the allocators Chromium
 * itself reports in chrome://tracing: malloc, partition_alloc, v8, blink_gc, skia, cc, gpu,
 * font_caches, media, …), taken through the DevTools protocol of one page. Used by
 * bench/session-memory.ts (--dump) to say which part a memory lever has to take. Not a bench by
 * itself.
 */
import fs from 'node:fs';
import type { Page } from 'playwright-core';

/** MB per top-level allocator of the page's renderer (effective size where Chromium gives it). */
export type Allocators = Record<string, number>;

interface DumpEvent {
  ph: string;
  pid: number;
  name?: string;
  args?: { dumps?: { allocators?: Record<string, { attrs?: Record<string, { value: string }> }>; process_totals?: Record<string, string> } };
}

const hexMb = (v: string | undefined): number => (v ? parseInt(v, 16) / 2 ** 20 : 0);

/**
 * A detailed memory dump of every process, reduced to the renderer of `page` (the one among
 * `pids` with the biggest malloc, else of all renderers): each top-level allocator's effective size
 * (its own, without what others account for), in MB.
 */
export async function rendererAllocators(page: Page, pids: number[] = []): Promise<Allocators> {
  const events = await memoryInfraTrace<DumpEvent>(page);
  // the renderer is the process whose dump has blink_gc (the page's DOM heap)
  const dumps = events.filter((e) => e.ph === 'v' && e.args?.dumps?.allocators);
  const renderers = dumps.filter((e) => Object.keys(e.args!.dumps!.allocators!).some((k) => k.startsWith('blink_gc')));
  const size = (e: DumpEvent, name: string) => hexMb(e.args!.dumps!.allocators![name]?.attrs?.effective_size?.value ?? e.args!.dumps!.allocators![name]?.attrs?.size?.value);
  // a session may own several renderers (before issue 11's memory round: Chromium's omnibox WebUI in every context): its page's is the biggest malloc
  const own = renderers.filter((e) => pids.includes(e.pid));
  const mine = (own.length ? own : renderers).sort((a, b) => size(b, 'malloc') - size(a, 'malloc'))[0];
  if (!mine) return {};
  // per allocator (the first segment of a dump's path): its shallowest dumps summed (a parent
  // that has no dump of its own is its children)
  const out: Allocators = {};
  const depth: Record<string, number> = {};
  for (const [name, a] of Object.entries(mine.args!.dumps!.allocators!)) {
    const top = name.split('/')[0];
    const d = name.split('/').length;
    const mb = hexMb(a.attrs?.effective_size?.value ?? a.attrs?.size?.value);
    if (!a.attrs?.effective_size && !a.attrs?.size) continue;
    if (depth[top] === undefined || d < depth[top]) {
      depth[top] = d;
      out[top] = mb;
    } else if (d === depth[top]) out[top] += mb;
  }
  for (const k of Object.keys(out)) if (!(out[k] > 0)) delete out[k];
  const totals = mine.args!.dumps!.process_totals;
  if (totals?.resident_set_bytes) out['(resident set)'] = hexMb(totals.resident_set_bytes);
  if (totals?.private_footprint_bytes) out['(private footprint)'] = hexMb(totals.private_footprint_bytes);
  return out;
}

/** Every process's detailed memory-infra dump (the trace's events), through a CDP session of `page`. */
export async function memoryInfraTrace<T>(page: Page): Promise<T[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const events: T[] = [];
    const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
    cdp.on('Tracing.dataCollected', (e) => events.push(...(e.value as unknown as T[])));
    await cdp.send('Tracing.start', {
      traceConfig: { includedCategories: ['disabled-by-default-memory-infra'], excludedCategories: ['*'], memoryDumpConfig: { triggers: [] } },
      transferMode: 'ReportEvents',
    } as never);
    const r = (await cdp.send('Tracing.requestMemoryDump', { deterministic: true, levelOfDetail: 'detailed' } as never)) as { success: boolean };
    await cdp.send('Tracing.end');
    await done;
    if (!r.success) throw new Error('the memory dump failed');
    return events;
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

/**
 * A process's PSS by what is mapped (/proc/<pid>/smaps), in MB: the chromium binary and other
 * files, `[anon]` (the heaps), `memfd:…` and `/dev/shm` (shared memory: canvas and video frame
 * buffers, audio), `[stack]`, … . Shows what the allocators above do not count.
 */
export function pssByMapping(pid: number): Record<string, number> {
  const out: Record<string, number> = {};
  let text = '';
  try {
    text = fs.readFileSync(`/proc/${pid}/smaps`, 'utf8');
  } catch {
    return out;
  }
  let name = '';
  for (const line of text.split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const n = head[1].trim();
      name = !n ? '[anon]' : n.startsWith('/memfd:') || n.startsWith('memfd:') ? n.replace(/^\//, '').replace(/ \(deleted\)$/, '') : n.startsWith('/dev/shm') ? '/dev/shm' : n.startsWith('/') ? (n.endsWith('.so') || /\.so[.\d]*$/.test(n) ? '(libraries)' : n) : n;
      continue;
    }
    const pss = /^Pss:\s+(\d+) kB/.exec(line);
    if (pss) out[name] = (out[name] ?? 0) + Number(pss[1]) / 1024;
  }
  return out;
}
