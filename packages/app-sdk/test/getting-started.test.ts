/**
 * docs/developers/getting-started.md, "From sign-up to a verified webhook", run literally: every
 * command of the section's code blocks, in the order the guide gives them, through a shell in the
 * repository's folder, against the real platform (web server and worker). Only the placeholders are
 * filled in ({PLATFORM_URL}, the e-mail, the secret test-install printed, a free port for 4000).
 * The server the guide shows must be examples/webhook-receiver.ts, which the guide runs.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startPlatform } from "../../../app/platform/testing/platform";

const p = await startPlatform({ worker: true });
const root = new URL("../../../", import.meta.url).pathname;
const guide = readFileSync(join(root, "docs/developers/getting-started.md"), "utf8");
const section = guide.slice(guide.indexOf("## From sign-up to a verified webhook"), guide.indexOf("## By hand"));
const blocks = [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1], text: m[2] }));
/** Shell commands, a backslash continuing a line. */
const commands = blocks
  .filter((b) => b.lang === "bash")
  .flatMap((b) =>
    b.text
      .replace(/\\\n\s*/g, "")
      .split("\n")
      .filter((l) => l.trim() && !l.trim().startsWith("#")),
  );

const children: ChildProcess[] = [];
/** What Ctrl-C in a terminal does: the signal to the command's whole process group (npx and the node it starts). */
const signal = (child: ChildProcess, name: NodeJS.Signals) => {
  if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, name);
};
afterAll(() => children.forEach((c) => signal(c, "SIGTERM")));

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** Runs a command as a terminal would; `input` is typed at its prompts. */
function run(command: string, env: NodeJS.ProcessEnv, input?: string) {
  const child = spawn("bash", ["-c", command], { cwd: root, env, detached: true });
  children.push(child);
  const output = { text: "" };
  child.stdout!.on("data", (d: Buffer) => (output.text += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output.text += d.toString()));
  if (input !== undefined) child.stdin!.end(input);
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output, exited };
}

async function until(what: string, check: () => boolean, ms = 20_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("the getting-started guide, run as written", () => {
  it("has the steps in order, and shows the receiver it runs", () => {
    const kinds = commands.map((c) =>
      /^(curl .*\/auth\/register|npx storefront-apps \S+|WEBHOOK_SECRET=\S+ node --import tsx examples\/webhook-receiver\.ts)/
        .exec(c)?.[1]
        .replace(/\/auth.*/, "")
        .replace(/=\S+/, ""),
    );
    expect(kinds).toEqual([
      "curl -s -X POST {PLATFORM_URL}",
      "npx storefront-apps login",
      "npx storefront-apps apps",
      "npx storefront-apps test-install",
      "WEBHOOK_SECRET node --import tsx examples/webhook-receiver.ts",
      "npx storefront-apps listen",
      "npx storefront-apps trigger",
    ]);
    const shown = blocks.find((b) => b.lang === "ts")!.text;
    const file = readFileSync(join(root, "examples/webhook-receiver.ts"), "utf8").replace(/^(\/\/.*\n)+/, "");
    expect(shown).toBe(file);
  });

  it("takes a new developer from sign-up to a verified webhook, with no public URL", async () => {
    const email = `ada-${Date.now()}@example.test`;
    const port = await freePort();
    const env = {
      ...process.env,
      STOREFRONT_APPS_CONFIG_DIR: mkdtempSync(join(tmpdir(), "guide-")),
      STOREFRONT_APPS_URL: "",
      RECEIVER_PORT: String(port),
    };
    const password = /"password":"([^"]+)"/.exec(commands[0])![1];
    let secret = "whsec_test_…"; // until test-install prints it
    const fill = (c: string) =>
      c
        .replaceAll("{PLATFORM_URL}", p.url)
        .replaceAll("you@example.com", email)
        .replaceAll("localhost:4000", `localhost:${port}`)
        .replaceAll("whsec_test_…", secret);
    const timings: string[] = [];
    const started = Date.now();
    const step = async (i: number, expectOutput: RegExp) => {
      const t = Date.now();
      const { output, exited } = run(
        fill(commands[i]),
        env,
        commands[i].includes(" login ") ? password + "\n" : undefined,
      );
      expect(await exited, `${commands[i]}\n${output.text}`).toBe(0);
      expect(output.text).toMatch(expectOutput);
      timings.push(`${commands[i].slice(0, 40)}: ${Date.now() - t} ms`);
      return output.text;
    };
    const background = async (i: number, ready: RegExp) => {
      const t = Date.now();
      const started = run(fill(commands[i]), env);
      await until(`${commands[i]} to be ready: ${started.output.text}`, () => ready.test(started.output.text));
      timings.push(`${commands[i].slice(0, 40)}: ${Date.now() - t} ms`);
      return started;
    };

    expect(JSON.parse(await step(0, /"token"/))).toMatchObject({ account: { email, role: "DEVELOPER" } });
    await step(1, new RegExp(`Logged in to ${p.url} as ${email}`));
    await step(2, /Created Order Notes \(DRAFT\)/);
    const installed = await step(3, /webhook secret:\s+whsec_test_/);
    secret = /webhook secret:\s+(\S+)/.exec(installed)![1];
    const accessToken = /access token:\s+(\S+)/.exec(installed)![1];
    const receiver = await background(4, new RegExp(`Receiving webhooks on http://localhost:${port}/webhooks`));
    const listen = await background(5, /Listening for Order Notes/);

    const t = Date.now();
    await step(6, /Triggered order\.created/);
    await until("the verified webhook", () =>
      /verified order\.created dlv_\S+ \{"orderId":"ord_\w+","orderNumber":"\d+","amount":/.test(receiver.output.text),
    );
    timings.push(`trigger to verified: ${Date.now() - t} ms`);
    await until("the listen line", () =>
      new RegExp(`webhook order\\.created\\s+-> http://localhost:${port}/webhooks\\s+200 `).test(listen.output.text),
    );
    const total = Date.now() - started;
    console.log(`getting started, command by command:\n  ${timings.join("\n  ")}\n  total: ${total} ms`);
    expect(total).toBeLessThan(120_000);

    // the delivery log says SUCCEEDED (attempts are recorded in batches just after the answer, so
    // the row may still be PENDING for a moment after the receiver printed "verified")
    const [registration] = (await p.request("GET", "/webhooks", { token: accessToken })).json.data;
    expect(registration.url).toBe("https://order-notes.example/webhooks");
    let deliveries: { event: string; status: string }[] = [];
    const readLog = async () =>
      (deliveries = (await p.request("GET", `/webhooks/${registration.id}/deliveries`, { token: accessToken })).json
        .data);
    await readLog();
    for (const end = Date.now() + 10_000; deliveries.some((d) => d.status === "PENDING") && Date.now() < end;)
      await new Promise((r) => setTimeout(r, 100)).then(readLog);
    expect(deliveries.map((d) => [d.event, d.status])).toEqual([["order.created", "SUCCEEDED"]]);

    // Ctrl-C stops listen cleanly
    signal(listen.child, "SIGINT");
    await listen.exited;
    expect(listen.output.text).toContain("Stopping");
    signal(receiver.child, "SIGTERM");
  }, 120_000);
});
