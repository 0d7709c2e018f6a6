// Starts the embedded server in a child process and stays alive, so that a test can kill it with SIGKILL.
import { startEmbeddedPostgres } from "../embedded";

const pg = await startEmbeddedPostgres({ dataDir: process.argv[2] });
console.log(`READY ${pg.adminUrl}`);
setInterval(() => {}, 1000);
