// Types for autocannon, which ships none: only the parts bench/load.ts uses.
declare module "autocannon" {
  namespace autocannon {
    type Request = { method?: string; path?: string; headers?: Record<string, string>; body?: string };
    type Options = { url: string; connections?: number; duration?: number; requests?: Request[]; timeout?: number };
    type Histogram = { average: number; p50: number; p99: number; total: number; max: number };
    type Result = { requests: Histogram; latency: Histogram; errors: number; timeouts: number; non2xx: number; "2xx": number };
  }
  function autocannon(options: autocannon.Options): Promise<autocannon.Result>;
  export default autocannon;
}
