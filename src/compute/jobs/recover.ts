// In-process queues live and die with their process: at start, jobs a stopped or crashed process of this host left
// behind are queued again (BullMQ needs none of this, Redis keeps its queue and hands on a dead worker's jobs, unless
// Redis restarted without its data: then the waiting jobs are added again, enqueueWaitingJobs).
import { hostname } from "node:os";
import type { Db } from "../../store/prisma.ts";
import type { JobQueue } from "./job-queue.ts";

/** Whether process `pid` of this host still runs. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Jobs RUNNING in a process of this host that is gone go back to QUEUED; every QUEUED job is queued here, oldest first. */
export async function requeueLeftJobs(db: Db, queue: JobQueue): Promise<number> {
  const host = hostname();
  const running = await db.computeJob.findMany({
    where: { status: "RUNNING" },
    select: { id: true, workerId: true, cancelRequested: true },
  });
  for (const job of running) {
    const [jobHost, pid] = (job.workerId ?? "").split(":");
    if (jobHost !== host || !pid || pid === String(process.pid) || alive(Number(pid))) continue;
    await db.computeJob.updateMany({
      where: { id: job.id, status: "RUNNING", workerId: job.workerId },
      data: job.cancelRequested
        ? { status: "CANCELLED", phase: "cancelled", finishedAt: new Date() }
        : { status: "QUEUED", phase: null, iteration: null, fraction: null, startedAt: null, workerId: null },
    });
  }
  return enqueueWaitingJobs(db, queue);
}

/**
 * Queues every job the database holds as QUEUED, oldest first. Also for BullMQ, once a Redis that restarted empty
 * (it lost the queue) is back: an id BullMQ still holds is not added twice, so a queue Redis kept stays as it was.
 */
export async function enqueueWaitingJobs(db: Db, queue: JobQueue): Promise<number> {
  const queued = await db.computeJob.findMany({ where: { status: "QUEUED" }, orderBy: { createdAt: "asc" }, select: { id: true } });
  for (const { id } of queued) await queue.enqueue(id);
  return queued.length;
}
