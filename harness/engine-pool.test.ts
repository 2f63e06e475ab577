import { describe, expect, it } from 'vitest';
import { runInOrder } from './engine-pool.ts';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('runInOrder', () => {
  it('commits in job order whatever order the jobs finish in, with at most `limit` running', async () => {
    let running = 0;
    let peak = 0;
    const committed: number[] = [];
    const delays = [30, 5, 20, 1, 15, 2];
    const n = await runInOrder(delays, { limit: 3, admission: () => 'shared', cancel: () => {} }, async (ms, i) => {
      running++; peak = Math.max(peak, running);
      await tick(ms);
      running--;
      return i;
    }, (_job, i, result) => { committed.push(i); expect(result).toBe(i); return true; });
    expect(n).toBe(6);
    expect(committed).toEqual([0, 1, 2, 3, 4, 5]);
    expect(peak).toBe(3);
  });

  it('runs an exclusive job alone: it waits for the jobs before it, and nothing starts beside it', async () => {
    const log: string[] = [];
    const jobs = ['a', 'b', 'X', 'c', 'd'];
    await runInOrder(jobs, { limit: 4, admission: (j) => (j === 'X' ? 'alone' : 'shared'), cancel: () => {} }, async (j) => {
      log.push(`start ${j}`);
      await tick(j === 'X' ? 20 : 5);
      log.push(`end ${j}`);
      return j;
    }, () => true);
    const at = (e: string) => log.indexOf(e);
    expect(at('start X')).toBeGreaterThan(Math.max(at('end a'), at('end b')));
    expect(at('start c')).toBeGreaterThan(at('end X'));
  });

  it('starts a background job first, outside the limit and beside an exclusive job, and commits it in its place', async () => {
    const log: string[] = [];
    const committed: string[] = [];
    const jobs = ['a', 'X', 'b', 'BG'];
    await runInOrder(jobs, { limit: 1, admission: (j) => (j === 'X' ? 'alone' : 'shared'), background: (j) => j === 'BG', cancel: () => {} }, async (j) => {
      log.push(`start ${j}`);
      await tick(j === 'BG' ? 40 : 5);
      log.push(`end ${j}`);
      return j;
    }, (j) => { committed.push(j); return true; });
    expect(log[0]).toBe('start BG');
    expect(log.indexOf('start X')).toBeLessThan(log.indexOf('end BG'));
    expect(committed).toEqual(jobs);
  });

  it('cancels and awaits a background job when commit stops the pool', async () => {
    const cancelled: number[] = [];
    let settled = false;
    const n = await runInOrder(['a', 'b', 'BG'], { limit: 1, admission: () => 'shared', background: (j) => j === 'BG', cancel: (i) => cancelled.push(i) }, async (j) => {
      await tick(j === 'BG' ? 30 : 5);
      if (j === 'BG') settled = true;
      return j;
    }, () => false);
    expect(n).toBe(1);
    expect(cancelled).toContain(2);
    expect(settled).toBe(true);
  });

  it('starts timed jobs beside each other once the shared ones before them ended, and a shared job after them only once they ended', async () => {
    const log: string[] = [];
    const jobs = ['a', 'T1', 'T2', 'b'];
    await runInOrder(jobs, { limit: 4, admission: (j) => (j.startsWith('T') ? 'timed' : 'shared'), cancel: () => {} }, async (j) => {
      log.push(`start ${j}`);
      await tick(j.startsWith('T') ? 20 : 5);
      log.push(`end ${j}`);
      return j;
    }, () => true);
    const at = (e: string) => log.indexOf(e);
    expect(at('start T1')).toBeGreaterThan(at('end a'));
    expect(at('start T2')).toBeLessThan(at('end T1'));
    expect(at('start b')).toBeGreaterThan(Math.max(at('end T1'), at('end T2')));
  });

  it('stops when commit says so: started jobs are cancelled and awaited, later ones never start', async () => {
    const started: number[] = [];
    const cancelled: number[] = [];
    const settled: number[] = [];
    const n = await runInOrder([0, 1, 2, 3, 4, 5], { limit: 3, admission: () => 'shared', cancel: (i) => cancelled.push(i) }, async (_j, i) => {
      started.push(i);
      await tick(i === 0 ? 1 : 30);
      settled.push(i);
      return i;
    }, (_j, i) => i < 0);
    expect(n).toBe(1);
    expect(started).toEqual([0, 1, 2, 3]);
    expect(cancelled).toEqual([1, 2, 3]);
    expect(settled.sort()).toEqual([0, 1, 2, 3]);
  });

  it('refuses a limit below 1', async () => {
    await expect(runInOrder([1], { limit: 0, admission: () => 'shared', cancel: () => {} }, async (x) => x, () => true)).rejects.toThrow(/limit must be an integer >= 1, got 0/);
  });
});
