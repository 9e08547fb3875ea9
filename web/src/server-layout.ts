// The page's side of a server layout: the job's state (GraphQL), its frames (the stream), the panel's controls, and
// the first-view START; drawing is left to the page through `host`.
import { type LayoutFrame, pageClock } from "./layout-frames.ts";
import {
  controlLayout,
  fetchLayoutJob,
  jobState,
  type LayoutAction,
  type LayoutJob,
  type LayoutSettings,
  type QueryRunner,
  settingsOf,
} from "./layout-job.ts";
import { createLayoutPanel, type LayoutPanel, type LayoutPanelElements, type PanelState } from "./layout-panel.ts";
import { type LayoutStream, openLayoutStream } from "./layout-stream.ts";

export type ServerLayoutHost = {
  /** Draws a frame's positions; false when the frame is not for the graph shown (another node count). */
  drawFrame(frame: LayoutFrame): Promise<boolean>;
  /** The layout's state or progress changed (the page's status line follows it). */
  progress(state: PanelState, iteration: number, maxIter: number): void;
  /** The layout failed, or could not be started, with the reason. */
  failed(message: string): void;
};

export type ServerLayout = {
  readonly state: PanelState;
  /** Frames wait (newest kept) until the page has its graph. */
  hold(): void;
  resume(): void;
  /**
   * The first view of a graph with no positions: starts the server's ForceAtlas2 unless a job is already running or
   * paused (its frames are on their way). Resolves when that is settled; failures go to `host.failed`.
   */
  ensureStarted(): Promise<void>;
  /** Asks for the job again (a LAYOUT_JOB event, a reconnection). */
  refresh(run?: QueryRunner): Promise<void>;
  toggle(): void;
  stop(): void;
};

const FORCE_ATLAS2 = { libraries: ["cugraph"], alg: "force_atlas2" };

export function createServerLayout(sessionId: string, elements: LayoutPanelElements, host: ServerLayoutHost): ServerLayout {
  const root = document.documentElement;
  let job: LayoutJob | null = null;
  let state: PanelState = "none";
  /**
   * When the newest word on the job's state arrived (`pageClock`): a frame that came off the socket before a job
   * answer still draws its positions but does not take back the answer's state (a running frame being drawn when the
   * pause's answer comes must not show the layout running again, nor make the toggle pause it a second time).
   */
  let stateAt = Number.NEGATIVE_INFINITY;
  /** The job as first asked: undefined while asking, null when there is none, an Error when the server has no jobs. */
  const firstJob: Promise<LayoutJob | null | Error> = fetchLayoutJob(sessionId).catch((error: unknown) =>
    error instanceof Error ? error : new Error(String(error)),
  );

  const show = (next: PanelState, iteration: number, maxIter: number) => {
    state = next;
    panel.showProgress(next, iteration, maxIter);
    host.progress(next, iteration, maxIter);
  };

  const applyJob = (next: LayoutJob | null) => {
    job = next;
    stateAt = pageClock();
    show(jobState(next), next?.iteration ?? 0, next?.maxIter ?? 0);
    panel.showSettings(settingsOf(next));
    if (next?.state === "FAILED") {
      const message = `The layout failed: ${next.error ?? "the server gave no reason"}`;
      panel.showError(message);
      host.failed(message);
    }
  };

  const control = async (action: LayoutAction, layout?: Record<string, unknown>) => {
    try {
      applyJob(await controlLayout(sessionId, action, layout));
    } catch (error) {
      panel.showError(`Could not ${action.toLowerCase().replace("_", " ")} the layout: ${messageOf(error)}`);
      throw error;
    }
  };
  const quietly = (action: LayoutAction, layout?: Record<string, unknown>) => void control(action, layout).catch(() => {});

  const panel: LayoutPanel = createLayoutPanel(elements, {
    pause: () => quietly("PAUSE"),
    resume: () => quietly("RESUME"),
    restart: (settings: LayoutSettings) => quietly("START", { ...FORCE_ATLAS2, params: { ...settings } }),
    setParams: (params) => {
      // Only a live job takes new parameters; otherwise the panel's values go with the next run.
      if (state === "running" || state === "paused") quietly("SET_PARAMS", { params });
    },
  });

  let frames = 0;
  const stream: LayoutStream = openLayoutStream(sessionId, {
    apply: async (frame, arrivedAt) => {
      if (!(await host.drawFrame(frame))) return;
      frames++;
      root.dataset.layoutFrames = String(frames);
      root.dataset.layoutSeq = String(frame.seq);
      root.dataset.layoutDropped = String(stream.counts.dropped);
      root.dataset.layoutReceived = String(stream.counts.received);
      if (arrivedAt < stateAt) return;
      stateAt = arrivedAt;
      show(frame.state, frame.iteration, frame.maxIter);
    },
  });
  root.dataset.layoutFrames = "0";

  void firstJob.then((first) => {
    // A frame or a control may have answered first; the first answer only fills in what is still unknown.
    if (!(first instanceof Error) && job === null && frames === 0) applyJob(first);
  });

  return {
    get state() {
      return state;
    },
    hold: () => stream.hold(),
    resume: () => stream.resume(),
    async ensureStarted() {
      const first = await firstJob;
      if (first instanceof Error) {
        host.failed(`This server does not lay graphs out (${first.message}).`);
        return;
      }
      // The newest word on the job (the first answer, a frame, a control or an event; all are in `state` by now):
      // a running or paused layout is already on its way here.
      if (state === "running" || state === "paused") return;
      try {
        await control("START");
      } catch (error) {
        host.failed(`The layout could not be started: ${messageOf(error)}`);
      }
    },
    async refresh(run) {
      try {
        applyJob(await fetchLayoutJob(sessionId, run));
      } catch (error) {
        console.warn("the layout job could not be read", error);
      }
    },
    toggle: () => panel.toggle(),
    stop: () => stream.stop(),
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
