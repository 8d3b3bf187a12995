/** Entry of one scanning thread (scan-files.ts): scans the files it is sent, one at a time. */
import { parentPort, workerData } from 'node:worker_threads';
import { scanFile, type ScanTask, type WorkerInit, type WorkerReply } from './scan-files.js';

const { shared, cwd } = workerData as WorkerInit;
if (!parentPort) throw new Error('scan-worker.js runs only as a worker thread of scan-files.ts');
const port = parentPort;
port.on('message', async (m: { index: number; task: ScanTask }) => {
  const reply: WorkerReply = { index: m.index, result: await scanFile(m.task, shared, cwd) };
  port.postMessage(reply);
});
