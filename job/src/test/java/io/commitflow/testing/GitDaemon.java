package io.commitflow.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A real Git server on the loopback: {@code git daemon} serving every repository under a folder over git://, read
 * only. {@link #stop()} and {@link #start()} again on the same port model a server that goes down and comes back.
 */
public final class GitDaemon implements AutoCloseable {
    private final Path base;
    private final int port;
    private Process process;

    public GitDaemon(Path base) throws IOException {
        this.base = base;
        try (ServerSocket s = new ServerSocket(0)) {
            this.port = s.getLocalPort();
        }
    }

    /** {@code git://127.0.0.1:PORT/{repo}}. */
    public String urlTemplate() {
        return "git://127.0.0.1:" + port + "/{repo}";
    }

    public GitDaemon start() throws IOException, InterruptedException {
        process = new ProcessBuilder("git", "daemon", "--reuseaddr", "--export-all", "--informative-errors",
                "--listen=127.0.0.1", "--port=" + port, "--base-path=" + base, base.toString())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return this;
            } catch (IOException notYet) {
                if (!process.isAlive()) {
                    throw new IOException("git daemon exited with " + process.exitValue());
                }
                Thread.sleep(50);
            }
        }
        throw new IOException("git daemon did not listen on " + port + " within 20 s");
    }

    public void stop() throws InterruptedException {
        if (process != null) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
            process = null;
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
