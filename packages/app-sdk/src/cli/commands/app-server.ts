/**
 * The app's own server as `storefront-apps dev` runs it (decision 086): a command (the package's
 * `dev` or `start` script, or `--command`) started in its own process group with the environment the
 * app needs, its output prefixed `[app]`, restarted when it crashes (three crashes within ten seconds:
 * it waits for the next change instead) and whenever a source file changes, and stopped with its
 * whole process group (SIGTERM, then SIGKILL after five seconds) when dev stops.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync, watch, type FSWatcher } from "node:fs";
import { connect } from "node:net";
import { join, resolve } from "node:path";

/** Folders never watched for changes: dependencies, VCS data, builds' caches. */
const IGNORED_DIRS = new Set(["node_modules", ".git", ".hg", ".svn", "dist", "build", "coverage"]);
/** Files whose change restarts nothing: editors' temporaries and logs (dot files other than .env too). */
const IGNORED_FILE = /(^\.(?!env$))|(~$)|(\.(swp|swx|tmp|log)$)|(^\d+$)/;

/** What `dev` runs: an explicit shell command, else `npm run dev` or `npm start` from the folder's package.json. */
export function appCommand(dir: string, explicit?: string): { command: string; label: string } | null {
  if (explicit) return { command: explicit, label: explicit };
  const file = join(dir, "package.json");
  if (!existsSync(file)) return null;
  let scripts: Record<string, unknown> = {};
  try {
    scripts = (JSON.parse(readFileSync(file, "utf8")) as { scripts?: Record<string, unknown> }).scripts ?? {};
  } catch {
    return null;
  }
  if (typeof scripts.dev === "string") return { command: "npm run --silent dev", label: "npm run dev" };
  if (typeof scripts.start === "string") return { command: "npm run --silent start", label: "npm start" };
  return null;
}

/** KEY=value lines of a .env file (# comments, optional quotes); an absent file is empty. */
export function readDotEnv(file: string): Record<string, string> {
  if (!existsSync(file)) return {};
  const vars: Record<string, string> = {};
  for (const line of readFileSync(file, "utf8").split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!m) continue;
    vars[m[1]] = m[2].replace(/^(['"])(.*)\1$/, "$2");
  }
  return vars;
}

/** The folders of `dir` whose files are the app's source: all but dependencies, VCS and dot folders. */
function sourceDirs(dir: string, depth = 0): string[] {
  const dirs = [dir];
  if (depth > 6) return dirs;
  let entries: import("node:fs").Dirent[] = [];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return dirs;
  }
  for (const e of entries)
    if (e.isDirectory() && !IGNORED_DIRS.has(e.name) && !e.name.startsWith("."))
      dirs.push(...sourceDirs(join(dir, e.name), depth + 1));
  return dirs;
}

/** Resolves true once something accepts connections on the port (false after `timeoutMs` or when `gone()`). */
async function portAnswers(port: number, timeoutMs: number, gone: () => boolean) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end && !gone()) {
    const ok = await new Promise<boolean>((done) => {
      const socket = connect({ port, host: "localhost" }, () => {
        socket.destroy();
        done(true);
      });
      socket.on("error", () => done(false));
    });
    if (ok) return true;
    await new Promise((r) => setTimeout(r, 150));
  }
  return false;
}

/**
 * Whether any process of the group is still running (a zombie waiting for its reaper is not). Linux
 * answers from /proc; elsewhere a signal 0 to the group answers.
 */
export function groupRunning(pgid: number): boolean {
  if (existsSync("/proc/self/stat")) {
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      } catch {
        continue;
      }
      // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(pgrp) === pgid && state !== "Z" && state !== "X") return true;
    }
    return false;
  }
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

export type AppServerOptions = {
  dir: string;
  command: string;
  label: string;
  port: number;
  env: NodeJS.ProcessEnv;
  out: (line?: string) => void;
  /** Restart on a change of the app's source files (default true). */
  watchSource?: boolean;
};

export function appServer({ dir, command, label, port, env, out, watchSource = true }: AppServerOptions) {
  const root = resolve(dir);
  let child: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();
  let stopping = false;
  let crashes: number[] = [];
  let restartTimer: NodeJS.Timeout | undefined;
  let changeTimer: NodeJS.Timeout | undefined;
  let watchers: FSWatcher[] = [];
  /** Processes dev ended itself: their exit is no crash. */
  const ended = new WeakSet<ChildProcess>();
  const time = () => new Date().toISOString().slice(11, 19);

  /** Sends `signal` to the child's whole process group (npm, the shell and the server under them). */
  const signalGroup = (c: ChildProcess, signal: NodeJS.Signals) => {
    if (c.pid === undefined) return;
    try {
      process.kill(process.platform === "win32" ? c.pid : -c.pid, signal);
    } catch {
      /* already gone */
    }
  };
  // dev ending in any way (an error included) takes the server with it
  const onExit = () => child && signalGroup(child, "SIGKILL");
  process.on("exit", onExit);

  const start = () => {
    if (stopping) return;
    const c = spawn(command, {
      cwd: root,
      env,
      shell: true,
      detached: process.platform !== "win32",
      stdio: ["ignore", "pipe", "pipe"],
    });
    child = c;
    const prefix = (stream: NodeJS.ReadableStream) => {
      let rest = "";
      stream.on("data", (d: Buffer) => {
        const lines = (rest + d.toString()).split("\n");
        rest = lines.pop() ?? "";
        for (const line of lines) out(`[app] ${line}`);
      });
      stream.on("end", () => rest && out(`[app] ${rest}`));
    };
    prefix(c.stdout!);
    prefix(c.stderr!);
    exited = new Promise<void>((done) => {
      c.on("exit", (code, signal) => {
        if (child === c) child = null;
        done();
        if (stopping || ended.has(c)) return;
        const now = Date.now();
        crashes = [...crashes.filter((t) => now - t < 10_000), now];
        if (crashes.length >= 3) {
          out(
            `${time()}  App server (${label}) exited (${signal ?? `code ${code}`}) three times in ten seconds: it starts again on the next change of its files.`,
          );
          return;
        }
        out(`${time()}  App server (${label}) exited (${signal ?? `code ${code}`}); starting it again in 1 s.`);
        restartTimer = setTimeout(start, 1000);
      });
      c.on("error", (e) => {
        out(`${time()}  App server (${label}) could not start: ${e.message}`);
        done();
      });
    });
    void portAnswers(port, 30_000, () => child !== c).then((ok) => {
      if (ok && child === c) out(`${time()}  App server up: http://localhost:${port} (${label}, pid ${c.pid}).`);
    });
  };

  /** Stops the running server (its whole process group) and resolves once none of the group runs. */
  const kill = async () => {
    clearTimeout(restartTimer);
    const c = child;
    if (!c) return;
    ended.add(c);
    signalGroup(c, "SIGTERM");
    const hard = setTimeout(() => signalGroup(c, "SIGKILL"), 5000);
    await exited;
    // npm or the shell at the head may end before the server under it: wait for the whole group
    if (c.pid !== undefined && process.platform !== "win32") {
      const end = Date.now() + 6000;
      while (groupRunning(c.pid) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
      if (groupRunning(c.pid)) {
        signalGroup(c, "SIGKILL");
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    clearTimeout(hard);
  };

  // one restart at a time: a change arriving while the server stops waits for the restart before it
  let restarting: Promise<void> = Promise.resolve();
  const restart = (why: string) =>
    (restarting = restarting.then(async () => {
      if (stopping) return;
      out(`${time()}  ${why}: restarting the app server.`);
      crashes = [];
      await kill();
      start();
      rewatch();
    }));

  const rewatch = () => {
    if (!watchSource) return;
    for (const w of watchers) w.close();
    watchers = [];
    for (const d of sourceDirs(root)) {
      try {
        watchers.push(
          watch(d, (_event, name) => {
            const file = name?.toString();
            if (!file || IGNORED_FILE.test(file) || IGNORED_DIRS.has(file)) return;
            clearTimeout(changeTimer);
            const rel = join(d, file).slice(root.length + 1);
            changeTimer = setTimeout(() => void restart(`${rel} changed`), 300);
          }),
        );
      } catch {
        /* a folder removed meanwhile */
      }
    }
  };

  return {
    start: () => {
      out(`${time()}  Starting the app server: ${label} in ${root} (PORT=${port}).`);
      start();
      rewatch();
    },
    /** The process running now (the shell or npm at the head of its group), if any. */
    get pid() {
      return child?.pid;
    },
    stop: async () => {
      stopping = true;
      clearTimeout(changeTimer);
      for (const w of watchers) w.close();
      watchers = [];
      await restarting;
      const running = child !== null;
      await kill();
      process.off("exit", onExit);
      if (running) out(`${time()}  App server stopped.`);
    },
  };
}
