<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>LabReport</name>
    <message>
        <source>✓ held</source>
        <translation>✓ 成立</translation>
    </message>
    <message>
        <source>✗ BROKEN</source>
        <translation>✗ 不成立</translation>
    </message>
    <message>
        <source>– not applicable</source>
        <translation>– 不适用</translation>
    </message>
    <message>
        <source> (SoftRoCE: software RDMA, timings are not hardware timings)</source>
        <translation>（SoftRoCE：软件实现的 RDMA，计时不代表硬件）</translation>
    </message>
    <message>
        <source>, Linux %1</source>
        <translation>，Linux %1</translation>
    </message>
    <message>
        <source>Lab</source>
        <translation>实验</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>%1 held, %2 broken, %3 of %4 steps run</source>
        <translation>%1 条成立，%2 条不成立，%4 步中运行了 %3 步</translation>
    </message>
    <message>
        <source>Predictions</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>%1 of %2 right</source>
        <translation>%2 个中对了 %1 个</translation>
    </message>
    <message>
        <source>Questions</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>种子</translation>
    </message>
    <message>
        <source> (drawn with the seed)</source>
        <translation>（由种子抽取）</translation>
    </message>
    <message>
        <source> (default)</source>
        <translation>（默认值）</translation>
    </message>
    <message>
        <source>Parameter %1</source>
        <translation>参数 %1</translation>
    </message>
    <message>
        <source>✓ right</source>
        <translation>✓ 对</translation>
    </message>
    <message>
        <source>✗ wrong</source>
        <translation>✗ 错</translation>
    </message>
    <message>
        <source>predicted: %1 · the device: %2</source>
        <translation>预测：%1 · 设备实际：%2</translation>
    </message>
    <message>
        <source>no prediction made</source>
        <translation>没有做预测</translation>
    </message>
    <message>
        <source> · the device: %1</source>
        <translation> · 设备实际：%1</translation>
    </message>
    <message>
        <source>Prediction: %1</source>
        <translation>预测：%1</translation>
    </message>
    <message>
        <source>Skipped: %1</source>
        <translation>已跳过：%1</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>判定</translation>
    </message>
    <message>
        <source>Expectation</source>
        <translation>预期</translation>
    </message>
    <message>
        <source>Observed</source>
        <translation>观察到的</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1 of %2 answered right.</source>
        <translation>%2 道题中答对 %1 道。</translation>
    </message>
    <message>
        <source>(right)</source>
        <translation>（正确选项）</translation>
    </message>
    <message>
        <source>Not answered.</source>
        <translation>未作答。</translation>
    </message>
    <message>
        <source>✓ Answered right.</source>
        <translation>✓ 答对了。</translation>
    </message>
    <message>
        <source>✗ Answered wrong.</source>
        <translation>✗ 答错了。</translation>
    </message>
    <message>
        <source>Grading summary</source>
        <translation>评分摘要</translation>
    </message>
    <message>
        <source>Student</source>
        <translation>学生</translation>
    </message>
    <message>
        <source>(not given: no seed)</source>
        <translation>（未填写：没有种子）</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>得分</translation>
    </message>
    <message>
        <source>%1% (%2 of %3 predictions and answers right)</source>
        <translation>%1%（%3 个预测和回答中对了 %2 个）</translation>
    </message>
    <message>
        <source>— (the lab asks no prediction and no question)</source>
        <translation>—（本实验没有预测，也没有问题）</translation>
    </message>
    <message>
        <source>Expectations</source>
        <translation>预期</translation>
    </message>
    <message>
        <source>%1 held,</source>
        <translation>%1 条成立，</translation>
    </message>
    <message>
        <source>%1 broken</source>
        <translation>%1 条不成立</translation>
    </message>
    <message>
        <source>Wrong</source>
        <translation>答错</translation>
    </message>
    <message>
        <source>Trace</source>
        <translation>轨迹</translation>
    </message>
    <message>
        <source>%1 events recorded on the device during this run:</source>
        <translation>本次运行在设备上记录了 %1 个事件：</translation>
    </message>
    <message>
        <source>download the trace (JSON Lines)</source>
        <translation>下载轨迹（JSON Lines）</translation>
    </message>
    <message>
        <source>Prediction, step %1: %2</source>
        <translation>预测，第 %1 步：%2</translation>
    </message>
    <message>
        <source>Question %1: %2</source>
        <translation>问题 %1：%2</translation>
    </message>
</context>
<context>
    <name>Language</name>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
</context>
<context>
    <name>SoftRoceText</name>
    <message>
        <source>this kernel (%1) has no rdma_rxe module</source>
        <translation>此内核（%1）没有 rdma_rxe 模块</translation>
    </message>
    <message>
        <source>no network interface is up with an IPv4 address (SoftRoCE needs one)</source>
        <translation>没有已启用且带 IPv4 地址的网络接口（SoftRoCE 需要一个）</translation>
    </message>
    <message>
        <source>the rdma tool (package iproute2) is not installed</source>
        <translation>未安装 rdma 工具（软件包 iproute2）</translation>
    </message>
    <message>
        <source>pkexec (package pkexec) is not installed, so the app cannot ask for root</source>
        <translation>未安装 pkexec（软件包 pkexec），因此本程序无法请求 root 权限</translation>
    </message>
    <message>
        <source>%1 could not be started.</source>
        <translation>无法启动 %1。</translation>
    </message>
    <message>
        <source>Run it in a terminal instead: %1</source>
        <translation>请改在终端中运行：%1</translation>
    </message>
    <message>
        <source>pkexec did not run the command (status 126): the authentication dialog was dismissed.</source>
        <translation>pkexec 没有运行该命令（状态 126）：认证对话框被关闭了。</translation>
    </message>
    <message>
        <source>Run it in a terminal instead: %1, then press Restart engine.</source>
        <translation>请改在终端中运行：%1，然后按“重启引擎”。</translation>
    </message>
    <message>
        <source>pkexec did not run the command (status 127): you are not authorized, or authorization could not be obtained (no authentication agent in this session, or the password was refused), or pkexec failed.</source>
        <translation>pkexec 没有运行该命令（状态 127）：你没有被授权，或无法获得授权（此会话中没有认证代理，或密码被拒绝），或 pkexec 出错。</translation>
    </message>
    <message>
        <source>rdma link add failed (status %1): %2 — a device named %3 exists already, or %4 has a SoftRoCE device.</source>
        <translation>rdma link add 失败（状态 %1）：%2 —— 名为 %3 的设备已存在，或 %4 上已有 SoftRoCE 设备。</translation>
    </message>
    <message>
        <source>See what exists with `rdma link show`; remove a stale one with `sudo rdma link delete %1`.</source>
        <translation>用 `rdma link show` 查看已有的设备；用 `sudo rdma link delete %1` 删除过时的设备。</translation>
    </message>
    <message>
        <source>rdma link add failed (status %1): %2 — the kernel could not load rdma_rxe.</source>
        <translation>rdma link add 失败（状态 %1）：%2 —— 内核无法加载 rdma_rxe。</translation>
    </message>
    <message>
        <source>Check `sudo modprobe rdma_rxe`; Engine ▸ Where the engine runs… offers the SoftRoCE VM.</source>
        <translation>请检查 `sudo modprobe rdma_rxe`；“引擎 ▸ 引擎在哪里运行…”提供 SoftRoCE 虚拟机。</translation>
    </message>
    <message>
        <source>rdma link add failed (status %1): %2</source>
        <translation>rdma link add 失败（状态 %1）：%2</translation>
    </message>
    <message>
        <source>(it said nothing)</source>
        <translation>（它没有输出任何信息）</translation>
    </message>
    <message>
        <source>Run it in a terminal to see more: %1</source>
        <translation>在终端中运行以查看更多信息：%1</translation>
    </message>
</context>
<context>
    <name>rdmalab::app::Banner</name>
    <message>
        <source>Restart engine</source>
        <translation>重启引擎</translation>
    </message>
</context>
<context>
    <name>rdmalab::app::BenchCharts</name>
    <message>
        <source>Latency per iteration</source>
        <translation>每次迭代的延迟</translation>
    </message>
    <message>
        <source>Latency histogram</source>
        <translation>延迟直方图</translation>
    </message>
    <message>
        <source>Latency CDF</source>
        <translation>延迟累积分布 (CDF)</translation>
    </message>
    <message>
        <source>Bandwidth over time</source>
        <translation>带宽随时间变化</translation>
    </message>
    <message>
        <source>Latency (p50) against message size</source>
        <translation>延迟 (p50) 随消息大小变化</translation>
    </message>
    <message>
        <source>Bandwidth against message size</source>
        <translation>带宽随消息大小变化</translation>
    </message>
    <message>
        <source>CPU time per message (both endpoints, from getrusage)</source>
        <translation>每条消息的 CPU 时间（两端合计，取自 getrusage）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Reading the CPU bars.&lt;/b&gt; TCP: every message is a &lt;code&gt;send()&lt;/code&gt; and a &lt;code&gt;recv()&lt;/code&gt; system call, and the CPU copies the payload twice (into the socket buffer and out of it), so its time is mostly kernel (sys) time. RDMA on a NIC: the application posts work requests and polls completions from user space; the steady-state data path makes no system call and no CPU copy, and busy polling shows up as user time. &lt;b&gt;SoftRoCE (rdma_rxe) is different&lt;/b&gt;: posting a send is a system call and the kernel does the transport and copies, so it shows sys time a NIC would not spend.</source>
        <translation>&lt;b&gt;如何读 CPU 柱状图。&lt;/b&gt;TCP：每条消息都是一次 &lt;code&gt;send()&lt;/code&gt; 和一次 &lt;code&gt;recv()&lt;/code&gt; 系统调用，CPU 还要把载荷复制两次（复制进套接字缓冲区，再复制出来），所以时间主要花在内核态 (sys)。网卡上的 RDMA：应用程序在用户态投递工作请求并轮询完成项；稳定状态下的数据路径既没有系统调用也没有 CPU 复制，忙轮询表现为用户态时间。&lt;b&gt;SoftRoCE (rdma_rxe) 不一样&lt;/b&gt;：投递一次发送就是一次系统调用，传输和复制都由内核完成，所以会出现网卡不会花费的内核态时间。</translation>
    </message>
    <message>
        <source>latency (µs)</source>
        <translation>延迟 (µs)</translation>
    </message>
    <message>
        <source>iteration</source>
        <translation>迭代</translation>
    </message>
    <message>
        <source>µs</source>
        <translation>µs</translation>
    </message>
    <message>
        <source>iterations per bin</source>
        <translation>每个区间的迭代次数</translation>
    </message>
    <message>
        <source>iterations</source>
        <translation>迭代次数</translation>
    </message>
    <message>
        <source>CDF</source>
        <translation>CDF</translation>
    </message>
    <message>
        <source>% of iterations at or below</source>
        <translation>不高于该值的迭代所占百分比</translation>
    </message>
    <message>
        <source>MB/s (10^6 B/s)</source>
        <translation>MB/s (10^6 B/s)</translation>
    </message>
    <message>
        <source>seconds</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>Latency per iteration — %1, %2 (last %3)</source>
        <translation>每次迭代的延迟 — %1，%2（最近 %3 次）</translation>
    </message>
    <message>
        <source>Latency per iteration (latency kinds)</source>
        <translation>每次迭代的延迟（延迟类测量）</translation>
    </message>
    <message>
        <source>Latency histogram (latency kinds)</source>
        <translation>延迟直方图（延迟类测量）</translation>
    </message>
    <message>
        <source>Latency CDF (latency kinds)</source>
        <translation>延迟累积分布（延迟类测量）</translation>
    </message>
    <message>
        <source>Latency histogram — %1 iterations above p99.9 (%2 %3) not drawn</source>
        <translation>延迟直方图 — 高于 p99.9（%2 %3）的 %1 次迭代未画出</translation>
    </message>
    <message>
        <source>Latency histogram — %1 iterations</source>
        <translation>延迟直方图 — %1 次迭代</translation>
    </message>
    <message>
        <source>Latency CDF — %1, %2</source>
        <translation>延迟累积分布 — %1，%2</translation>
    </message>
    <message>
        <source>Bandwidth over time (bandwidth kinds)</source>
        <translation>带宽随时间变化（带宽类测量）</translation>
    </message>
    <message>
        <source>Bandwidth over time — %1, %2</source>
        <translation>带宽随时间变化 — %1，%2</translation>
    </message>
    <message>
        <source> (no finished %1 measurement yet)</source>
        <translation>（还没有完成的 %1 测量）</translation>
    </message>
    <message>
        <source>latency</source>
        <translation>延迟</translation>
    </message>
    <message>
        <source>bandwidth</source>
        <translation>带宽</translation>
    </message>
    <message>
        <source>message size (log scale)</source>
        <translation>消息大小（对数坐标）</translation>
    </message>
    <message>
        <source>µs (log scale)</source>
        <translation>µs（对数坐标）</translation>
    </message>
    <message>
        <source>MB/s, 10^6 B/s (log scale)</source>
        <translation>MB/s，10^6 B/s（对数坐标）</translation>
    </message>
    <message>
        <source>user µs per message</source>
        <translation>每条消息的用户态 µs</translation>
    </message>
    <message>
        <source>sys (kernel) µs per message</source>
        <translation>每条消息的内核态 (sys) µs</translation>
    </message>
    <message>
        <source>CPU time per message (no finished measurement yet)</source>
        <translation>每条消息的 CPU 时间（还没有完成的测量）</translation>
    </message>
    <message>
        <source>CPU time per message (both endpoints, from getrusage) — %1</source>
        <translation>每条消息的 CPU 时间（两端合计，取自 getrusage）— %1</translation>
    </message>
    <message>
        <source>µs per message</source>
        <translation>每条消息的 µs</translation>
    </message>
</context>
<context>
    <name>rdmalab::app::BenchSession</name>
    <message>
        <source>A measurement is already running: stop it first.</source>
        <translation>已有一项测量正在进行：请先停止它。</translation>
    </message>
    <message>
        <source>The engine process is not running: press Restart engine.</source>
        <translation>引擎进程没有运行：请按“重启引擎”。</translation>
    </message>
    <message>
        <source>Choose what to measure.</source>
        <translation>请选择要测量的项目。</translation>
    </message>
    <message>
        <source>The engine stopped during the measurement; the results so far are kept.
%1</source>
        <translation>测量过程中引擎停止了；已得到的结果保留。
%1</translation>
    </message>
</context>
<context>
    <name>rdmalab::app::BenchWindow</name>
    <message>
        <source>Still opening the previous recording: wait until it is shown.</source>
        <translation>上一个录制还在打开：请等它显示出来。</translation>
    </message>
    <message>
        <source>rdmalab — TCP and RDMA, measured side by side</source>
        <translation>rdmalab — TCP 与 RDMA 并排测量</translation>
    </message>
    <message>
        <source>Measuring %1 of %2 …</source>
        <translation>正在测量第 %1 项，共 %2 项 …</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Iterations</source>
        <translation>迭代次数</translation>
    </message>
    <message>
        <source>p50 µs</source>
        <translation>p50 µs</translation>
    </message>
    <message>
        <source>p99 µs</source>
        <translation>p99 µs</translation>
    </message>
    <message>
        <source>MB/s (10^6)</source>
        <translation>MB/s (10^6)</translation>
    </message>
    <message>
        <source>Gb/s</source>
        <translation>Gb/s</translation>
    </message>
    <message>
        <source>Mmsg/s</source>
        <translation>百万消息/s</translation>
    </message>
    <message>
        <source>user µs/msg</source>
        <translation>用户态 µs/消息</translation>
    </message>
    <message>
        <source>sys µs/msg</source>
        <translation>内核态 µs/消息</translation>
    </message>
    <message>
        <source>switches/msg</source>
        <translation>上下文切换/消息</translation>
    </message>
    <message>
        <source>syscalls/msg</source>
        <translation>系统调用/消息</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Measure</source>
        <translation>测量</translation>
    </message>
    <message>
        <source>TCP vs RDMA (latency and bandwidth)</source>
        <translation>TCP 对比 RDMA（延迟与带宽）</translation>
    </message>
    <message>
        <source>All latency kinds (TCP and RDMA)</source>
        <translation>全部延迟类测量（TCP 与 RDMA）</translation>
    </message>
    <message>
        <source>All bandwidth kinds (TCP and RDMA)</source>
        <translation>全部带宽类测量（TCP 与 RDMA）</translation>
    </message>
    <message>
        <source> Measure </source>
        <translation> 测量 </translation>
    </message>
    <message>
        <source>2 B and 64 KiB</source>
        <translation>2 B 与 64 KiB</translation>
    </message>
    <message>
        <source>  Size </source>
        <translation>  大小 </translation>
    </message>
    <message>
        <source>Sweep 2 B … 8 MiB</source>
        <translation>扫描 2 B … 8 MiB</translation>
    </message>
    <message>
        <source>  Iterations </source>
        <translation>  迭代次数 </translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Open recording…</source>
        <translation>打开录制…</translation>
    </message>
    <message>
        <source>Open a measurement trace</source>
        <translation>打开测量轨迹</translation>
    </message>
    <message>
        <source>Trace (*.jsonl);;All files (*)</source>
        <translation>轨迹 (*.jsonl);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Results as CSV…</source>
        <translation>结果导出为 CSV…</translation>
    </message>
    <message>
        <source>Export results</source>
        <translation>导出结果</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Results as JSON…</source>
        <translation>结果导出为 JSON…</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>Samples of the shown run as CSV…</source>
        <translation>当前显示测量的样本导出为 CSV…</translation>
    </message>
    <message>
        <source>Export samples</source>
        <translation>导出样本</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>Charts as PNG…</source>
        <translation>图表导出为 PNG…</translation>
    </message>
    <message>
        <source>Save charts</source>
        <translation>保存图表</translation>
    </message>
    <message>
        <source>PNG (*.png)</source>
        <translation>PNG (*.png)</translation>
    </message>
    <message>
        <source>Charts as SVG…</source>
        <translation>图表导出为 SVG…</translation>
    </message>
    <message>
        <source>SVG (*.svg)</source>
        <translation>SVG (*.svg)</translation>
    </message>
    <message>
        <source>Measurement trace (JSON Lines)…</source>
        <translation>测量轨迹（JSON Lines）…</translation>
    </message>
    <message>
        <source>Save trace</source>
        <translation>保存轨迹</translation>
    </message>
    <message>
        <source>Trace (*.jsonl)</source>
        <translation>轨迹 (*.jsonl)</translation>
    </message>
    <message>
        <source>Live charts</source>
        <translation>实时图表</translation>
    </message>
    <message>
        <source>CPU per message</source>
        <translation>每条消息的 CPU</translation>
    </message>
    <message>
        <source>TCP vs RDMA</source>
        <translation>TCP 对比 RDMA</translation>
    </message>
    <message>
        <source>Starting …</source>
        <translation>正在启动 …</translation>
    </message>
    <message>
        <source>Could not open the recording: %1</source>
        <translation>无法打开录制：%1</translation>
    </message>
    <message>
        <source>%1 holds no measurement (no &quot;measure&quot; events): open it in the lesson window instead.</source>
        <translation>%1 中没有测量（没有 &quot;measure&quot; 事件）：请改在课程窗口中打开它。</translation>
    </message>
    <message>
        <source>Replay loaded: %1 measurements.</source>
        <translation>已载入回放：%1 项测量。</translation>
    </message>
    <message>
        <source>Done: %1 measurements.</source>
        <translation>完成：%1 项测量。</translation>
    </message>
    <message>
        <source>The measurement failed: %1</source>
        <translation>测量失败：%1</translation>
    </message>
    <message>
        <source>The measurement failed.
%1</source>
        <translation>测量失败。
%1</translation>
    </message>
    <message>
        <source>Autosave failed: %1
The measurement is kept in memory only: save it with Export ▸ Measurement trace before you start another one.</source>
        <translation>自动保存失败：%1
这次测量只保存在内存中：开始下一次测量之前，请用“导出 ▸ 测量轨迹”保存它。</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1, %2&lt;/b&gt; · %3: stopped before the first measured iteration, so there are no statistics</source>
        <translation>&lt;b&gt;%1，%2&lt;/b&gt; · %3：在第一次计入统计的迭代之前就停止了，因此没有统计数据</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1, %2&lt;/b&gt; · %3 of %4 iterations · %5 · min %6 · p50 %7 · mean %8 · p90 %9 · p99 %10 · p99.9 %11 · max %12</source>
        <translation>&lt;b&gt;%1，%2&lt;/b&gt; · %3/%4 次迭代 · %5 · 最小 %6 · p50 %7 · 平均 %8 · p90 %9 · p99 %10 · p99.9 %11 · 最大 %12</translation>
    </message>
    <message>
        <source>measuring</source>
        <translation>测量中</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1, %2&lt;/b&gt; · %3 messages in %4 s · %5 MB/s · %6 Gb/s · %7 million messages/s</source>
        <translation>&lt;b&gt;%1，%2&lt;/b&gt; · %4 秒内 %3 条消息 · %5 MB/s · %6 Gb/s · 每秒 %7 百万条消息</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1, %2&lt;/b&gt; · measuring …</source>
        <translation>&lt;b&gt;%1，%2&lt;/b&gt; · 测量中 …</translation>
    </message>
    <message>
        <source>Choose what to measure and press Run. Every number is measured on the device named above, now.</source>
        <translation>请选择要测量的项目，然后按“运行”。每个数字都是现在在上面注明的设备上测得的。</translation>
    </message>
    <message>
        <source>%1 planned</source>
        <translation>计划 %1 次</translation>
    </message>
    <message>
        <source> (software RDMA)</source>
        <translation>（软件 RDMA）</translation>
    </message>
    <message>
        <source>&lt;b&gt;REPLAY&lt;/b&gt; of %1 — figures recorded earlier, nothing is measured now. </source>
        <translation>&lt;b&gt;回放&lt;/b&gt; %1 — 这些数字是早先录制的，现在没有进行任何测量。</translation>
    </message>
    <message>
        <source>RDMA measured on &lt;b&gt;%1&lt;/b&gt;</source>
        <translation>RDMA 测量设备：&lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <source> — &lt;span style=&apos;color:#a15c00&apos;&gt;&lt;b&gt;SoftRoCE: RDMA done in software by the Linux kernel (rdma_rxe); these are not hardware numbers.&lt;/b&gt;&lt;/span&gt;</source>
        <translation> — &lt;span style=&apos;color:#a15c00&apos;&gt;&lt;b&gt;SoftRoCE：由 Linux 内核 (rdma_rxe) 用软件实现的 RDMA；这些不是硬件数字。&lt;/b&gt;&lt;/span&gt;</translation>
    </message>
    <message>
        <source> TCP runs over the loopback interface (lo) through the kernel stack of the same machine.</source>
        <translation> TCP 经由回环接口 (lo) 走同一台机器的内核协议栈。</translation>
    </message>
    <message>
        <source>TCP runs over the loopback interface (lo) through the kernel stack of this machine.</source>
        <translation>TCP 经由回环接口 (lo) 走本机的内核协议栈。</translation>
    </message>
    <message>
        <source>Nothing measured yet.</source>
        <translation>还没有测量任何项目。</translation>
    </message>
    <message>
        <source>Trace every work request</source>
        <translation>跟踪每个工作请求</translation>
    </message>
    <message>
        <source>Measure each RDMA run once untraced and once with every post, poll and completion traced: the Pipeline page draws it, with what tracing cost.</source>
        <translation>每个 RDMA 测量先不跟踪测一次，再跟踪每次投递、轮询和完成项测一次：“流水线”页画出跟踪的那次，并给出跟踪的代价。</translation>
    </message>
    <message>
        <source>Pipeline</source>
        <translation>流水线</translation>
    </message>
</context>
<context>
    <name>rdmalab::app::ClassSummaryDialog</name>
    <message>
        <source>Class summary</source>
        <translation>全班汇总</translation>
    </message>
    <message numerus="yes">
        <source>%n report(s) in %1</source>
        <translation>
            <numerusform>%1 中有 %n 份报告</numerusform>
        </translation>
    </message>
    <message>
        <source>Student</source>
        <translation>学生</translation>
    </message>
    <message>
        <source>Lab</source>
        <translation>实验</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>得分</translation>
    </message>
    <message>
        <source>Predictions</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>Questions</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Expectations</source>
        <translation>预期</translation>
    </message>
    <message>
        <source>Wrong</source>
        <translation>答错</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>(no name)</source>
        <translation>（未填姓名）</translation>
    </message>
    <message>
        <source>%1 of %2 right (%3 made)</source>
        <translation>%2 个中对 %1 个（作答 %3 个）</translation>
    </message>
    <message>
        <source>%1 of %2 right (%3 answered)</source>
        <translation>%2 个中对 %1 个（回答 %3 个）</translation>
    </message>
    <message>
        <source>%1 held, %2 broken</source>
        <translation>%1 条成立，%2 条不成立</translation>
    </message>
    <message>
        <source>Not read:
%1</source>
        <translation>未能读取：
%1</translation>
    </message>
</context>
<context>
    <name>rdmalab::app::DataPathView</name>
    <message>
        <source>RDMA data path</source>
        <translation>RDMA 数据路径</translation>
    </message>
    <message>
        <source>Hosts A and B with their software layers, the RDMA device&apos;s queues and the RoCE v2 link, drawn as the path of the device in use (a NIC, or SoftRoCE in the kernel)</source>
        <translation>主机 A 和 B 及其软件层、RDMA 设备的各个队列和 RoCE v2 链路，按所用设备（网卡，或内核中的 SoftRoCE）的路径绘制</translation>
    </message>
    <message>
        <source>✗ no receive WQE posted</source>
        <translation>✗ 没有已投递的接收 WQE</translation>
    </message>
    <message>
        <source>✗ rkey 0x%1, range or rights refused by the responder</source>
        <translation>✗ rkey 0x%1、地址范围或访问权限被响应方拒绝</translation>
    </message>
    <message>
        <source>✗ the responder answered with a remote access error</source>
        <translation>✗ 响应方以远端访问错误作答</translation>
    </message>
    <message>
        <source>NAK: remote access error</source>
        <translation>NAK：远端访问错误</translation>
    </message>
    <message>
        <source>✗ invalid request, refused by the responder</source>
        <translation>✗ 无效请求，被响应方拒绝</translation>
    </message>
    <message>
        <source>NAK: invalid request</source>
        <translation>NAK：无效请求</translation>
    </message>
    <message>
        <source>✗ the responder could not carry it out</source>
        <translation>✗ 响应方无法执行该操作</translation>
    </message>
    <message>
        <source>NAK: remote operational error</source>
        <translation>NAK：远端操作错误</translation>
    </message>
    <message>
        <source>RNR NAK: rnr_retry ran out, the send failed</source>
        <translation>RNR NAK：rnr_retry 用尽，发送失败</translation>
    </message>
    <message>
        <source>RNR NAK: rnr_retry 0, the send fails at once</source>
        <translation>RNR NAK：rnr_retry 为 0，发送立即失败</translation>
    </message>
    <message>
        <source>RNR NAK: rnr_retry 7 never gives up</source>
        <translation>RNR NAK：rnr_retry 为 7，永不放弃</translation>
    </message>
    <message>
        <source>✗ no ACK: retries exhausted (timeouts or sequence NAKs)</source>
        <translation>✗ 没有得到 ACK：重试已用尽（超时或序列错误 NAK）</translation>
    </message>
    <message>
        <source>✗ no ACK: retry_cnt 0, failed at the first timeout or sequence NAK</source>
        <translation>✗ 没有得到 ACK：retry_cnt 为 0，第一次超时或序列错误 NAK 即失败</translation>
    </message>
    <message>
        <source>✗ lkey refused on A: the returned bytes cannot be written into A&apos;s memory</source>
        <translation>✗ A 上的 lkey 被拒绝：返回的字节无法写入 A 的内存</translation>
    </message>
    <message>
        <source>✗ lkey refused on A: the payload cannot be read, nothing is sent</source>
        <translation>✗ A 上的 lkey 被拒绝：无法读取载荷，什么也没有发送</translation>
    </message>
    <message>
        <source>control path</source>
        <translation>控制路径</translation>
    </message>
    <message>
        <source>no device yet</source>
        <translation>尚无设备</translation>
    </message>
    <message>
        <source>SoftRoCE (software RDMA)</source>
        <translation>SoftRoCE（软件 RDMA）</translation>
    </message>
    <message>
        <source>REPLAY</source>
        <translation>回放</translation>
    </message>
    <message>
        <source>Step %1/%2: %3</source>
        <translation>第 %1/%2 步：%3</translation>
    </message>
    <message>
        <source>RoCE v2: UDP/IP, port 4791</source>
        <translation>RoCE v2：UDP/IP，端口 4791</translation>
    </message>
    <message>
        <source>RoCE v2 packets: UDP/IP, port 4791</source>
        <translation>RoCE v2 数据包：UDP/IP，端口 4791</translation>
    </message>
    <message>
        <source>solid = observed event from the real device</source>
        <translation>实线 = 从真实设备观察到的事件</translation>
    </message>
    <message>
        <source>REPLAY · the recording&apos;s note: %1</source>
        <translation>回放 · 录制的备注：%1</translation>
    </message>
    <message>
        <source>The session&apos;s note: %1</source>
        <translation>本次会话的备注：%1</translation>
    </message>
    <message>
        <source>Kernel (ib_uverbs: control path only)</source>
        <translation>内核（ib_uverbs：仅控制路径）</translation>
    </message>
    <message>
        <source>RNIC · %1</source>
        <translation>RNIC · %1</translation>
    </message>
    <message>
        <source>RNIC</source>
        <translation>RNIC</translation>
    </message>
    <message>
        <source>data path: bypasses the kernel</source>
        <translation>数据路径：绕过内核</translation>
    </message>
    <message>
        <source>doorbell (MMIO)</source>
        <translation>门铃 (MMIO)</translation>
    </message>
    <message>
        <source>ring in host memory: the NIC writes CQEs (DMA)</source>
        <translation>位于主机内存中的环：网卡写入 CQE (DMA)</translation>
    </message>
    <message>
        <source>dashed = illustration of what happens inside the NIC</source>
        <translation>虚线 = 示意网卡内部发生的事</translation>
    </message>
    <message>
        <source>A and B are both on %1: the packets usually turn around inside the NIC; whether they reach the wire depends on the device and its configuration</source>
        <translation>A 和 B 都在 %1 上：数据包通常在网卡内部折返；是否到达线路取决于设备及其配置</translation>
    </message>
    <message>
        <source>MMIO doorbell write</source>
        <translation>MMIO 门铃写入</translation>
    </message>
    <message>
        <source>NIC reads the payload (DMA)</source>
        <translation>网卡读取载荷 (DMA)</translation>
    </message>
    <message>
        <source>DMA read %1</source>
        <translation>DMA 读 %1</translation>
    </message>
    <message>
        <source>bytes land in B&apos;s memory (DMA): B&apos;s CPU takes no part</source>
        <translation>字节落入 B 的内存 (DMA)：B 的 CPU 不参与</translation>
    </message>
    <message>
        <source>bytes land in the buffer of B&apos;s receive WQE (DMA)</source>
        <translation>字节落入 B 的接收 WQE 的缓冲区 (DMA)</translation>
    </message>
    <message>
        <source>bytes land in A&apos;s memory (DMA)</source>
        <translation>字节落入 A 的内存 (DMA)</translation>
    </message>
    <message>
        <source>DMA write %1</source>
        <translation>DMA 写 %1</translation>
    </message>
    <message>
        <source>NIC reads the requested bytes (DMA): B&apos;s CPU takes no part</source>
        <translation>网卡读取所请求的字节 (DMA)：B 的 CPU 不参与</translation>
    </message>
    <message>
        <source>NIC reads, compares/adds and writes 8 bytes (DMA): B&apos;s CPU takes no part</source>
        <translation>网卡读取、比较/相加并写回 8 字节 (DMA)：B 的 CPU 不参与</translation>
    </message>
    <message>
        <source>DMA read-modify-write</source>
        <translation>DMA 读-改-写</translation>
    </message>
    <message>
        <source>the NIC wrote this CQE (DMA)</source>
        <translation>这个 CQE 由网卡写入 (DMA)</translation>
    </message>
    <message>
        <source>Kernel: ib_uverbs + rdma_rxe</source>
        <translation>内核：ib_uverbs + rdma_rxe</translation>
    </message>
    <message>
        <source>rdma_rxe (below) does the NIC&apos;s work on a CPU</source>
        <translation>rdma_rxe（下方）在 CPU 上完成网卡的工作</translation>
    </message>
    <message>
        <source>%1 · software RDMA device</source>
        <translation>%1 · 软件 RDMA 设备</translation>
    </message>
    <message>
        <source>software RDMA device (kernel)</source>
        <translation>软件 RDMA 设备（内核）</translation>
    </message>
    <message>
        <source>rings shared with the kernel: no system call</source>
        <translation>与内核共享的环：没有系统调用</translation>
    </message>
    <message>
        <source>send doorbell: write() system call</source>
        <translation>发送门铃：write() 系统调用</translation>
    </message>
    <message>
        <source>rxe requester</source>
        <translation>rxe 请求方</translation>
    </message>
    <message>
        <source>ring shared with the process: rxe writes CQEs (CPU)</source>
        <translation>与进程共享的环：rxe 写入 CQE (CPU)</translation>
    </message>
    <message>
        <source>dashed = illustration of what happens inside the rxe driver</source>
        <translation>虚线 = 示意 rxe 驱动内部发生的事</translation>
    </message>
    <message>
        <source>A and B are both on %1: rxe loops the packets back inside the driver, they never reach a network interface</source>
        <translation>A 和 B 都在 %1 上：rxe 在驱动内部把数据包环回，它们从不到达网络接口</translation>
    </message>
    <message>
        <source>write() system call: doorbell</source>
        <translation>write() 系统调用：门铃</translation>
    </message>
    <message>
        <source>rxe copies the payload with the CPU (kernel)</source>
        <translation>rxe 用 CPU 复制载荷（内核）</translation>
    </message>
    <message>
        <source>CPU copy %1</source>
        <translation>CPU 复制 %1</translation>
    </message>
    <message>
        <source>rxe copies the bytes into B&apos;s memory with the CPU (kernel): B&apos;s application runs no code</source>
        <translation>rxe 用 CPU 把字节复制进 B 的内存（内核）：B 的应用程序不执行任何代码</translation>
    </message>
    <message>
        <source>rxe copies the bytes into the buffer of B&apos;s receive WQE (CPU)</source>
        <translation>rxe 把字节复制进 B 的接收 WQE 的缓冲区 (CPU)</translation>
    </message>
    <message>
        <source>rxe copies the bytes into A&apos;s memory (CPU)</source>
        <translation>rxe 把字节复制进 A 的内存 (CPU)</translation>
    </message>
    <message>
        <source>rxe copies the requested bytes with the CPU (kernel): B&apos;s application runs no code</source>
        <translation>rxe 用 CPU 复制所请求的字节（内核）：B 的应用程序不执行任何代码</translation>
    </message>
    <message>
        <source>rxe reads, compares/adds and writes 8 bytes with the CPU (kernel)</source>
        <translation>rxe 用 CPU 读取、比较/相加并写回 8 字节（内核）</translation>
    </message>
    <message>
        <source>CPU read-modify-write</source>
        <translation>CPU 读-改-写</translation>
    </message>
    <message>
        <source>rxe wrote this CQE into the shared ring (CPU)</source>
        <translation>这个 CQE 由 rxe 写入共享环 (CPU)</translation>
    </message>
    <message>
        <source>Kernel (ib_uverbs)</source>
        <translation>内核 (ib_uverbs)</translation>
    </message>
    <message>
        <source>RDMA device · %1</source>
        <translation>RDMA 设备 · %1</translation>
    </message>
    <message>
        <source>RDMA device</source>
        <translation>RDMA 设备</translation>
    </message>
    <message>
        <source>data path</source>
        <translation>数据路径</translation>
    </message>
    <message>
        <source>doorbell</source>
        <translation>门铃</translation>
    </message>
    <message>
        <source>dashed = illustration of what happens inside the device</source>
        <translation>虚线 = 示意设备内部发生的事</translation>
    </message>
    <message>
        <source>A and B are both on %1: the packets are looped back inside the device</source>
        <translation>A 和 B 都在 %1 上：数据包在设备内部环回</translation>
    </message>
    <message>
        <source>the device reads the payload</source>
        <translation>设备读取载荷</translation>
    </message>
    <message>
        <source>read %1</source>
        <translation>读 %1</translation>
    </message>
    <message>
        <source>bytes land in B&apos;s memory</source>
        <translation>字节落入 B 的内存</translation>
    </message>
    <message>
        <source>bytes land in the buffer of B&apos;s receive WQE</source>
        <translation>字节落入 B 的接收 WQE 的缓冲区</translation>
    </message>
    <message>
        <source>bytes land in A&apos;s memory</source>
        <translation>字节落入 A 的内存</translation>
    </message>
    <message>
        <source>write %1</source>
        <translation>写 %1</translation>
    </message>
    <message>
        <source>the device reads the requested bytes</source>
        <translation>设备读取所请求的字节</translation>
    </message>
    <message>
        <source>the device reads, compares/adds and writes 8 bytes</source>
        <translation>设备读取、比较/相加并写回 8 字节</translation>
    </message>
    <message>
        <source>read-modify-write</source>
        <translation>读-改-写</translation>
    </message>
    <message>
        <source>the device wrote this CQE</source>
        <translation>这个 CQE 由设备写入</translation>
    </message>
    <message>
        <source>%1 B inline: the CPU copied them into the WQE</source>
        <translation>%1 B 内联：CPU 已把它们复制进 WQE</translation>
    </message>
    <message>
        <source>inline: the payload travels in the WQE, A&apos;s buffer is not read again</source>
        <translation>内联：载荷随 WQE 传送，不再读取 A 的缓冲区</translation>
    </message>
    <message>
        <source>%1: no ACK comes back; A&apos;s completion means the request left, not that it arrived</source>
        <translation>%1：不会回送 ACK；A 的完成只表示请求已经发出，不表示已经到达</translation>
    </message>
    <message>
        <source>QP in ERR: the request is flushed</source>
        <translation>QP 处于 ERR：请求被冲刷 (flushed)</translation>
    </message>
    <message>
        <source>flushed</source>
        <translation>已冲刷 (flushed)</translation>
    </message>
    <message>
        <source>✗ completed with %1</source>
        <translation>✗ 以 %1 完成</translation>
    </message>
    <message>
        <source>%1 packet · %2</source>
        <translation>%1 数据包 · %2</translation>
    </message>
    <message>
        <source>READ request · rkey 0x%1 · %2</source>
        <translation>READ 请求 · rkey 0x%1 · %2</translation>
    </message>
    <message>
        <source>%1 request · rkey 0x%2</source>
        <translation>%1 请求 · rkey 0x%2</translation>
    </message>
    <message>
        <source>%1 packet · rkey 0x%2 · %3</source>
        <translation>%1 数据包 · rkey 0x%2 · %3</translation>
    </message>
    <message>
        <source>takes the next receive WQE</source>
        <translation>取用下一个接收 WQE</translation>
    </message>
    <message>
        <source>rkey 0x%1 valid, access allowed</source>
        <translation>rkey 0x%1 有效，允许访问</translation>
    </message>
    <message>
        <source>ATOMIC response · old value</source>
        <translation>ATOMIC 响应 · 原值</translation>
    </message>
    <message>
        <source>READ response · %1</source>
        <translation>READ 响应 · %1</translation>
    </message>
    <message>
        <source>no registered buffer yet (ibv_reg_mr registers it)</source>
        <translation>还没有已注册的缓冲区（由 ibv_reg_mr 注册）</translation>
    </message>
    <message>
        <source>first %1 of %2 bytes</source>
        <translation>%2 字节中的前 %1 字节</translation>
    </message>
    <message>
        <source>  ·  highlighted: changed since registration</source>
        <translation>  ·  高亮：注册以来改变过的字节</translation>
    </message>
    <message>
        <source>illustrated</source>
        <translation>示意</translation>
    </message>
    <message>
        <source>Host A · requester</source>
        <translation>主机 A · 请求方</translation>
    </message>
    <message>
        <source>Host B · responder</source>
        <translation>主机 B · 响应方</translation>
    </message>
    <message>
        <source>Application buffer</source>
        <translation>应用程序缓冲区</translation>
    </message>
    <message>
        <source>Verbs library (libibverbs) · user space</source>
        <translation>Verbs 库 (libibverbs) · 用户态</translation>
    </message>
    <message>
        <source>Port %1</source>
        <translation>端口 %1</translation>
    </message>
    <message>
        <source>%1 · %2 B at %3 · lkey %4</source>
        <translation>%1 · %2 B，位于 %3 · lkey %4</translation>
    </message>
    <message>
        <source>region</source>
        <translation>区域</translation>
    </message>
    <message>
        <source>not registered</source>
        <translation>未注册</translation>
    </message>
    <message>
        <source>memory translation table</source>
        <translation>内存地址转换表</translation>
    </message>
    <message>
        <source>no region registered</source>
        <translation>没有已注册的内存区域</translation>
    </message>
    <message>
        <source>addr %1</source>
        <translation>地址 %1</translation>
    </message>
    <message>
        <source>length %1 B</source>
        <translation>长度 %1 B</translation>
    </message>
    <message>
        <source>access %1</source>
        <translation>访问权限 %1</translation>
    </message>
    <message>
        <source>(local read only)</source>
        <translation>（仅本地读）</translation>
    </message>
    <message>
        <source>no queue pair (none created, or destroyed)</source>
        <translation>没有队列对（未创建，或已销毁）</translation>
    </message>
    <message>
        <source>peer QPN %1</source>
        <translation>对端 QPN %1</translation>
    </message>
    <message>
        <source>last: %1</source>
        <translation>上一次：%1</translation>
    </message>
    <message>
        <source>mask: %1</source>
        <translation>掩码：%1</translation>
    </message>
    <message>
        <source>SQ · send queue</source>
        <translation>SQ · 发送队列</translation>
    </message>
    <message>
        <source>empty</source>
        <translation>空</translation>
    </message>
    <message>
        <source>RQ · receive queue</source>
        <translation>RQ · 接收队列</translation>
    </message>
    <message>
        <source>%1 CQEs</source>
        <translation>%1 个 CQE</translation>
    </message>
    <message>
        <source>no completion queue</source>
        <translation>没有完成队列</translation>
    </message>
    <message>
        <source>no completions yet</source>
        <translation>还没有完成项</translation>
    </message>
    <message>
        <source>no PD</source>
        <translation>没有 PD</translation>
    </message>
    <message>
        <source>RNR NAK, retried %1 time, then failed</source>
        <translation>RNR NAK，重试 %1 次后失败</translation>
    </message>
    <message>
        <source>RNR NAK, retried %1 times, then failed</source>
        <translation>RNR NAK，重试 %1 次后失败</translation>
    </message>
    <message>
        <source>✗ no ACK: retried %1 time (retry_cnt) after a timeout or sequence NAK, then failed</source>
        <translation>✗ 没有得到 ACK：因超时或序列错误 NAK 重试 %1 次 (retry_cnt) 后失败</translation>
    </message>
    <message>
        <source>✗ no ACK: retried %1 times (retry_cnt) after timeouts or sequence NAKs, then failed</source>
        <translation>✗ 没有得到 ACK：因超时或序列错误 NAK 重试 %1 次 (retry_cnt) 后失败</translation>
    </message>
    <message>
        <source>%1 WQE</source>
        <translation>%1 个 WQE</translation>
    </message>
    <message>
        <source>%1 WQEs</source>
        <translation>%1 个 WQE</translation>
    </message>
    <message>
        <source>%1 CQE polled by the app</source>
        <translation>应用程序已轮询 %1 个 CQE</translation>
    </message>
    <message>
        <source>%1 CQEs polled by the app</source>
        <translation>应用程序已轮询 %1 个 CQE</translation>
    </message>
    <message>
        <source>last completion: %1</source>
        <translation>最近的完成项：%1</translation>
    </message>
    <message>
        <source>the NIC writes it into %1&apos;s receive buffer (DMA)</source>
        <translation>NIC 把它写入 %1 的接收缓冲区 (DMA)</translation>
    </message>
    <message>
        <source>rxe copies it into %1&apos;s receive buffer (CPU)</source>
        <translation>rxe 把它复制进 %1 的接收缓冲区 (CPU)</translation>
    </message>
    <message>
        <source>the device writes it into %1&apos;s receive buffer</source>
        <translation>设备把它写入 %1 的接收缓冲区</translation>
    </message>
    <message>
        <source>datagram from QP %1 · %2 B</source>
        <translation>来自 QP %1 的数据报 · %2 B</translation>
    </message>
    <message>
        <source>%1 packet · %2 B</source>
        <translation>%1 报文 · %2 B</translation>
    </message>
    <message>
        <source>Host %1</source>
        <translation>主机 %1</translation>
    </message>
    <message>
        <source>%1 · %2 B</source>
        <translation>%1 · %2 B</translation>
    </message>
    <message>
        <source>%1 polled</source>
        <translation>已轮询 %1 个</translation>
    </message>
    <message>
        <source>none yet</source>
        <translation>还没有</translation>
    </message>
    <message>
        <source>Step %1/%2</source>
        <translation>第 %1/%2 步</translation>
    </message>
</context>
<context>
    <name>rdmalab::app::DevicePanel</name>
    <message>
        <source>Device / port</source>
        <translation>设备 / 端口</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Open a recording…</source>
        <translation>打开一个录制…</translation>
    </message>
    <message>
        <source>Use the SoftRoCE VM</source>
        <translation>使用 SoftRoCE 虚拟机</translation>
    </message>
    <message>
        <source>The app boots a VM with Debian&apos;s kernel and rdma_rxe under qemu and runs the engine there (software CPU emulation: slow, but real verbs)</source>
        <translation>应用程序用 qemu 启动一个带 rdma_rxe 的 Debian 内核虚拟机，并在其中运行引擎（软件 CPU 模拟：慢，但 verbs 调用是真实的）</translation>
    </message>
    <message>
        <source>Use a host over SSH…</source>
        <translation>通过 SSH 使用一台主机…</translation>
    </message>
    <message>
        <source>state</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>link layer</source>
        <translation>链路层</translation>
    </message>
    <message>
        <source>active MTU</source>
        <translation>当前 MTU</translation>
    </message>
    <message>
        <source>GID table</source>
        <translation>GID 表</translation>
    </message>
    <message>
        <source>&lt;h3&gt;No RDMA device&lt;/h3&gt;&lt;p&gt;rdmalab shows real verbs calls on a real device, so it needs one. Without an RDMA NIC, &lt;b&gt;SoftRoCE&lt;/b&gt; (the &lt;code&gt;rdma_rxe&lt;/code&gt; kernel module) implements RoCE v2 in software on an ordinary network interface (Ethernet, or even the loopback interface).&lt;/p&gt;</source>
        <translation>&lt;h3&gt;没有 RDMA 设备&lt;/h3&gt;&lt;p&gt;rdmalab 展示的是真实设备上的真实 verbs 调用，所以需要一个设备。没有 RDMA 网卡时，&lt;b&gt;SoftRoCE&lt;/b&gt;（内核模块 &lt;code&gt;rdma_rxe&lt;/code&gt;）可以在普通网络接口（以太网，甚至回环接口）上用软件实现 RoCE v2。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;The engine on &lt;b&gt;%1&lt;/b&gt; found no RDMA device with an ACTIVE port there. What follows is for that host.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;%1&lt;/b&gt; 上的引擎在那里没有找到端口处于 ACTIVE 状态的 RDMA 设备。以下内容针对那台主机。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;Or open a recording of a real run to replay it.&lt;/p&gt;</source>
        <translation>&lt;p&gt;也可以打开一次真实运行的录制来回放它。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Create %1 on %2…</source>
        <translation>在 %2 上创建 %1…</translation>
    </message>
    <message>
        <source>Create a SoftRoCE device: rdma link add %1 type rxe netdev %2, run as root through pkexec after you agree</source>
        <translation>创建 SoftRoCE 设备：在你同意后，通过 pkexec 以 root 身份运行 rdma link add %1 type rxe netdev %2</translation>
    </message>
    <message>
        <source>The command succeeded, but the engine still finds no ACTIVE port. Check `rdma link show`: the port is ACTIVE only while its network interface is up.</source>
        <translation>命令执行成功，但引擎仍找不到 ACTIVE 状态的端口。请检查 `rdma link show`：只有当其网络接口处于启用状态时，端口才是 ACTIVE。</translation>
    </message>
    <message>
        <source>Create a SoftRoCE device</source>
        <translation>创建 SoftRoCE 设备</translation>
    </message>
    <message>
        <source>&lt;p&gt;SoftRoCE (the kernel&apos;s &lt;code&gt;rdma_rxe&lt;/code&gt;) makes &lt;b&gt;%1&lt;/b&gt; an RDMA device in software: RoCE v2 over that interface, driven by the host&apos;s CPU. Creating it needs root, so the app runs this command%2:&lt;/p&gt;&lt;pre&gt;%3&lt;/pre&gt;&lt;p&gt;The device %4 lasts until the next reboot, or until &lt;code&gt;sudo rdma link delete %4&lt;/code&gt;. Nothing else is changed.&lt;/p&gt;</source>
        <translation>&lt;p&gt;SoftRoCE（内核的 &lt;code&gt;rdma_rxe&lt;/code&gt;）用软件把 &lt;b&gt;%1&lt;/b&gt; 变成一个 RDMA 设备：在该接口上运行 RoCE v2，由主机的 CPU 完成。创建它需要 root 权限，所以本程序会运行以下命令%2：&lt;/p&gt;&lt;pre&gt;%3&lt;/pre&gt;&lt;p&gt;设备 %4 会一直存在，直到下次重启，或直到运行 &lt;code&gt;sudo rdma link delete %4&lt;/code&gt;。不会改动其他任何东西。&lt;/p&gt;</translation>
    </message>
    <message>
        <source> (pkexec asks for your password)</source>
        <translation>（pkexec 会询问你的密码）</translation>
    </message>
    <message>
        <source>Run it</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Created %1 on %2: the engine starts again to use it.</source>
        <translation>已在 %2 上创建 %1：引擎将重新启动以使用它。</translation>
    </message>
    <message>
        <source>Running: %1</source>
        <translation>正在运行：%1</translation>
    </message>
    <message>
        <source>The SoftRoCE VM&apos;s console</source>
        <translation>SoftRoCE 虚拟机的控制台</translation>
    </message>
    <message>
        <source>The engine does not run in a VM, or the VM has not started yet.</source>
        <translation>引擎没有在虚拟机中运行，或者虚拟机还没有启动。</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>重新载入</translation>
    </message>
</context>
<context>
    <name>rdmalab::app::EngineClient</name>
    <message>
        <source>output line %1: longer than %2 MiB</source>
        <translation>输出第 %1 行：超过 %2 MiB</translation>
    </message>
    <message>
        <source>output %1</source>
        <translation>输出 %1</translation>
    </message>
    <message>
        <source>%1 (%2 events had a field of the wrong type)</source>
        <translation>%1（%2 个事件有字段类型错误）</translation>
    </message>
    <message>
        <source>engine %1; the event was skipped</source>
        <translation>引擎 %1；已跳过该事件</translation>
    </message>
    <message>
        <source>The engine process (%1) sent something that is not a trace event: %2
It was stopped. Nothing you recorded is lost: the trace so far stays in the timeline and can be saved. Press Restart engine to go on.</source>
        <translation>引擎进程 (%1) 发送了不是轨迹事件的内容：%2
它已被停止。你录制的内容不会丢失：目前为止的轨迹仍在时间线中，可以保存。按“重启引擎”继续。</translation>
    </message>
    <message>
        <source>The engine process (%1) crashed.</source>
        <translation>引擎进程 (%1) 崩溃了。</translation>
    </message>
    <message>
        <source>The engine process (%1) exited with status %2.</source>
        <translation>引擎进程 (%1) 已退出，状态码 %2。</translation>
    </message>
    <message>
        <source>
Nothing you recorded is lost: the trace so far stays in the timeline and can be saved. Press Restart engine to go on.</source>
        <translation>
你录制的内容不会丢失：目前为止的轨迹仍在时间线中，可以保存。按“重启引擎”继续。</translation>
    </message>
    <message>
        <source>Could not start the engine process &apos;%1&apos;: %2.
Build it with `cmake --build --preset dev` or put rdmalab-cli next to the app.</source>
        <translation>无法启动引擎进程“%1”：%2。
请用 `cmake --build --preset dev` 构建它，或把 rdmalab-cli 放在应用程序旁边。</translation>
    </message>
    <message>
        <source>speaks engine protocol %1</source>
        <translation>使用引擎协议 %1</translation>
    </message>
    <message>
        <source>announces no engine protocol (it is older than protocol versions)</source>
        <translation>没有声明引擎协议（它早于协议版本机制）</translation>
    </message>
    <message>
        <source>This app (rdmalab %1) speaks engine protocol %2, but the engine %3 %4. The two cannot work together, so the engine was stopped: install the same rdmalab version on both sides (the app starts the rdmalab-cli next to it, else the one in the build tree, else the one on PATH).</source>
        <translation>本应用（rdmalab %1）使用引擎协议 %2，但引擎 %3 %4。两者无法协同工作，因此引擎已被停止：请在两端安装相同版本的 rdmalab（应用优先启动它旁边的 rdmalab-cli，其次是构建目录中的，最后是 PATH 中的）。</translation>
    </message>
    <message>
        <source>%1 in the %2</source>
        <translation>%2 中的 %1</translation>
    </message>
    <message>
        <source>this machine</source>
        <translation>本机</translation>
    </message>
    <message>
        <source>rdmalab-cli on %1</source>
        <translation>%1 上的 rdmalab-cli</translation>
    </message>
    <message>
        <source>
Lost: the answer to the command that was running (the step did not finish).</source>
        <translation>
丢失的内容：正在执行的那条命令的应答（该步骤没有完成）。</translation>
    </message>
    <message>
        <source>
Lost: the answers to the %1 commands that were running (the step did not finish).</source>
        <translation>
丢失的内容：正在执行的 %1 条命令的应答（该步骤没有完成）。</translation>
    </message>
</context>
<context>
    <name>rdmalab::app::EngineHostDialog</name>
    <message>
        <source>Name the host: user@host, or ssh://user@host:port.</source>
        <translation>请填写主机：user@host，或 ssh://user@host:port。</translation>
    </message>
    <message>
        <source>Where the engine runs</source>
        <translation>引擎在哪里运行</translation>
    </message>
    <message>
        <source>The app never calls verbs itself: its engine (rdmalab-cli) does, on the device of the machine it runs on. The status line always says where.</source>
        <translation>应用程序自己从不调用 verbs：由它的引擎 (rdmalab-cli) 在引擎所在机器的设备上调用。状态栏始终注明引擎在哪里运行。</translation>
    </message>
    <message>
        <source>This machine: its RDMA NIC, or a SoftRoCE device made on it</source>
        <translation>本机：它的 RDMA 网卡，或在本机上创建的 SoftRoCE 设备</translation>
    </message>
    <message>
        <source>A SoftRoCE VM the app starts (qemu, software CPU emulation): for a machine without RDMA; times are distorted many times over</source>
        <translation>由应用程序启动的 SoftRoCE 虚拟机（qemu，软件 CPU 模拟）：用于没有 RDMA 的机器；时间会被放大许多倍</translation>
    </message>
    <message>
        <source>Another host, over SSH (your own keys and ~/.ssh/config)</source>
        <translation>另一台主机，通过 SSH（使用你自己的密钥和 ~/.ssh/config）</translation>
    </message>
    <message>
        <source>rdmalab-cli (on the host&apos;s PATH)</source>
        <translation>rdmalab-cli（在该主机的 PATH 中）</translation>
    </message>
    <message>
        <source>Host:</source>
        <translation>主机：</translation>
    </message>
    <message>
        <source>rdmalab-cli there:</source>
        <translation>那里的 rdmalab-cli：</translation>
    </message>
    <message>
        <source>The login must work with a key and without a prompt (the app has no terminal to ask on): run ssh-copy-id user@host once. The host needs rdmalab %1 and a device with an ACTIVE port; nothing is installed there.</source>
        <translation>登录必须用密钥完成，且不能有任何提示（应用程序没有终端可以询问）：请先运行一次 ssh-copy-id user@host。该主机需要装有 rdmalab %1，并有一个端口处于 ACTIVE 状态的设备；应用程序不会在那里安装任何东西。</translation>
    </message>
    <message>
        <source>Connect</source>
        <translation>连接</translation>
    </message>
</context>
<context>
    <name>rdmalab::app::EngineStatusLine</name>
    <message>
        <source>engine stopped · %1</source>
        <translation>引擎已停止 · %1</translation>
    </message>
    <message>
        <source>no RDMA device · %1</source>
        <translation>没有 RDMA 设备 · %1</translation>
    </message>
</context>
<context>
    <name>rdmalab::app::LabBrowser</name>
    <message>
        <source>These lab files did not load (%1):</source>
        <translation>以下实验文件没有载入（%1 个）：</translation>
    </message>
    <message>
        <source>… and %1 more</source>
        <translation>……另有 %1 个</translation>
    </message>
</context>
<context>
    <name>rdmalab::app::LabCatalog</name>
    <message>
        <source>Lab</source>
        <translation>实验</translation>
    </message>
    <message>
        <source>Level</source>
        <translation>难度</translation>
    </message>
    <message>
        <source>Minutes</source>
        <translation>分钟</translation>
    </message>
    <message>
        <source>intro</source>
        <translation>入门</translation>
    </message>
    <message>
        <source>basic</source>
        <translation>基础</translation>
    </message>
    <message>
        <source>intermediate</source>
        <translation>中级</translation>
    </message>
    <message>
        <source>advanced</source>
        <translation>高级</translation>
    </message>
    <message>
        <source>Finished %1: every expectation held (%2)</source>
        <translation>%1 完成：所有预期均成立（%2 条）</translation>
    </message>
    <message>
        <source>Finished %1: %2 held, %3 broken</source>
        <translation>%1 完成：%2 条成立，%3 条不成立</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>Predictions: %1 of %2 right</source>
        <translation>预测：%2 个中对了 %1 个</translation>
    </message>
    <message>
        <source>Questions: %1 of %2 right</source>
        <translation>问题：%2 道中答对 %1 道</translation>
    </message>
    <message>
        <source>Ran %1: every expectation held (%2); answer the questions to finish it</source>
        <translation>已于 %1 运行：每条预期都成立（%2）；回答完问题才算完成</translation>
    </message>
</context>
<context>
    <name>rdmalab::app::LabForm</name>
    <message>
        <source>Choose a lab on the left.</source>
        <translation>请在左侧选择一个实验。</translation>
    </message>
    <message>
        <source>a name or number: varying parameters are drawn from it</source>
        <translation>一个名字或数字：可变参数由它抽取</translation>
    </message>
    <message>
        <source>Per-student variation: the same seed always gives the same values, a neighbour&apos;s seed others. Values typed above still win.</source>
        <translation>按学生变化：同一个种子总是得到相同的取值，邻座的种子得到另一组。上面手动输入的值仍然优先。</translation>
    </message>
    <message>
        <source>Student</source>
        <translation>学生</translation>
    </message>
    <message>
        <source>chapter %1</source>
        <translation>第 %1 章</translation>
    </message>
    <message>
        <source>%1 minutes</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <source> (%1 to %2)</source>
        <translation>（%1 到 %2）</translation>
    </message>
    <message>
        <source> (one of %1)</source>
        <translation>（取 %1 之一）</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Two hosts: this lab runs between two hosts on one wire, with `rdmalab-cli lab run %1 --listen ADDR` on B&apos;s host and `rdmalab-cli lab run %1 --connect HOST` on A&apos;s. Started here, on one host, its steps are skipped.</source>
        <translation>两台主机：本实验在连在同一条线路上的两台主机之间运行，在 B 的主机上运行 `rdmalab-cli lab run %1 --listen ADDR`，在 A 的主机上运行 `rdmalab-cli lab run %1 --connect HOST`。在这里（只有一台主机）启动时，它的各个步骤都会被跳过。</translation>
    </message>
</context>
<context>
    <name>rdmalab::app::LabSession</name>
    <message>
        <source>The engine process is not running: use Engine &gt; Restart engine.</source>
        <translation>引擎进程没有运行：请使用“引擎 &gt; 重启引擎”。</translation>
    </message>
    <message>
        <source>The engine&apos;s answer to %1 is malformed: %2</source>
        <translation>引擎对 %1 的应答格式错误：%2</translation>
    </message>
    <message>
        <source>The engine&apos;s answer to lab.step names no step.</source>
        <translation>引擎对 lab.step 的应答没有指明是哪一步。</translation>
    </message>
    <message>
        <source>The engine refused lab.step: %1</source>
        <translation>引擎拒绝了 lab.step：%1</translation>
    </message>
    <message>
        <source>The engine&apos;s answer to lab.step names step %1, and the lab has %2 steps.</source>
        <translation>引擎对 lab.step 的应答指明第 %1 步，而本实验只有 %2 步。</translation>
    </message>
    <message>
        <source>The lab file %1 does not exist.</source>
        <translation>实验文件 %1 不存在。</translation>
    </message>
    <message>
        <source>%1 is not a lab file: a lab is a regular file of at most 1 MiB.</source>
        <translation>%1 不是实验文件：实验必须是不超过 1 MiB 的普通文件。</translation>
    </message>
    <message>
        <source>Could not read the lab file %1: %2</source>
        <translation>无法读取实验文件 %1：%2</translation>
    </message>
    <message>
        <source>succeeds</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>fails</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>completions</source>
        <translation>完成项个数</translation>
    </message>
    <message>
        <source>completion</source>
        <translation>完成项</translation>
    </message>
    <message>
        <source>qp_state</source>
        <translation>QP 状态</translation>
    </message>
    <message>
        <source>bytes</source>
        <translation>字节</translation>
    </message>
    <message>
        <source>compare</source>
        <translation>比较</translation>
    </message>
    <message>
        <source>says</source>
        <translation>正文所说</translation>
    </message>
    <message>
        <source>cm_event</source>
        <translation>CM 事件</translation>
    </message>
    <message>
        <source>event</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>async_event</source>
        <translation>异步事件</translation>
    </message>
    <message>
        <source>prediction</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>held</source>
        <comment>a step&apos;s state</comment>
        <translation>成立</translation>
    </message>
    <message>
        <source>broken</source>
        <comment>a step&apos;s state</comment>
        <translation>不成立</translation>
    </message>
    <message>
        <source>skipped</source>
        <comment>a step&apos;s state</comment>
        <translation>已跳过</translation>
    </message>
    <message>
        <source>not run</source>
        <comment>a step&apos;s state</comment>
        <translation>未运行</translation>
    </message>
    <message>
        <source>pending</source>
        <comment>a step&apos;s state</comment>
        <translation>待运行</translation>
    </message>
</context>
<context>
    <name>rdmalab::app::LabStage</name>
    <message>
        <source>Data path</source>
        <translation>数据通路</translation>
    </message>
    <message>
        <source>QP states · memory</source>
        <translation>QP 状态 · 内存</translation>
    </message>
</context>
<context>
    <name>rdmalab::app::LabWindow</name>
    <message>
        <source>No RDMA device where the engine runs (%1), and this lab needs one: nothing was run or marked. %2</source>
        <translation>引擎运行的地方（%1）没有 RDMA 设备，而这个实验需要设备：什么都没有运行，也没有记下任何结果。%2</translation>
    </message>
    <message>
        <source>Create a SoftRoCE device, or start rdmalab with --engine vm to run the engine in the SoftRoCE VM.</source>
        <translation>请创建一个 SoftRoCE 设备，或者用 --engine vm 启动 rdmalab，让引擎在 SoftRoCE 虚拟机里运行。</translation>
    </message>
    <message>
        <source>rdmalab — Labs</source>
        <translation>rdmalab — 实验</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <source>No lab &apos;%1&apos; in %2 or %3</source>
        <translation>在 %2 或 %3 中没有实验“%1”</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Step ▷</source>
        <translation>单步 ▷</translation>
    </message>
    <message>
        <source>▶ Play</source>
        <translation>▶ 播放</translation>
    </message>
    <message>
        <source>⟲ Reset</source>
        <translation>⟲ 重置</translation>
    </message>
    <message>
        <source>Export report…</source>
        <translation>导出报告…</translation>
    </message>
    <message>
        <source>Write an HTML report of this run: device, date, parameters, every step and expectation, and the trace</source>
        <translation>为这次运行写一份 HTML 报告：设备、日期、参数、每一步和每条预期，以及轨迹</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>判定</translation>
    </message>
    <message>
        <source>Expectation</source>
        <translation>预期</translation>
    </message>
    <message>
        <source>Observed</source>
        <translation>观察到的</translation>
    </message>
    <message>
        <source>Export lab report</source>
        <translation>导出实验报告</translation>
    </message>
    <message>
        <source>HTML (*.html)</source>
        <translation>HTML (*.html)</translation>
    </message>
    <message>
        <source>Report written: %1</source>
        <translation>报告已写入：%1</translation>
    </message>
    <message>
        <source>Preparing %1 on the device…</source>
        <translation>正在设备上准备 %1…</translation>
    </message>
    <message>
        <source>*Skipped: %1*</source>
        <translation>*已跳过：%1*</translation>
    </message>
    <message>
        <source>*Not run yet.*</source>
        <translation>*尚未运行。*</translation>
    </message>
    <message>
        <source>❚❚ Pause</source>
        <translation>❚❚ 暂停</translation>
    </message>
    <message>
        <source>%1: step %2 of %3 · %4 held, %5 broken</source>
        <translation>%1：第 %2 步，共 %3 步 · %4 条成立，%5 条不成立</translation>
    </message>
    <message>
        <source> · every expectation held</source>
        <translation> · 所有预期均成立</translation>
    </message>
    <message>
        <source> · NOT every expectation held</source>
        <translation> · 并非所有预期都成立</translation>
    </message>
    <message>
        <source>The running lab keeps its language; the next Start uses the new one.</source>
        <translation>正在运行的实验保持原来的语言；下一次“开始”使用新语言。</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>✓ held</source>
        <translation>✓ 成立</translation>
    </message>
    <message>
        <source>✗ BROKEN</source>
        <translation>✗ 不成立</translation>
    </message>
    <message>
        <source>– n/a</source>
        <translation>– 不适用</translation>
    </message>
    <message>
        <source>Predict first: lock in your answer, then the step runs.</source>
        <translation>先预测：锁定你的答案，然后这一步才会运行。</translation>
    </message>
    <message>
        <source>Fix it yourself in the workbench…</source>
        <translation>在工作台中自己修复…</translation>
    </message>
    <message>
        <source>Builds this lab&apos;s broken set-up in the workbench; find what is wrong, fix it, and let the lab check your fix. Start here runs the reference fix instead.</source>
        <translation>在工作台中搭建本实验有问题的环境；找出哪里出错、修复它，再让实验检查你的修复。在这里点“开始”则运行参考修复。</translation>
    </message>
    <message>
        <source>Nothing to play: name a lab with --lab ID.</source>
        <translation>没有可以播放的实验：请用 --lab ID 指定一个实验。</translation>
    </message>
    <message>
        <source>Autosave failed: %1
This run is kept in memory only: export its report before you close the window.</source>
        <translation>自动保存失败：%1
这次运行只保存在内存中：关闭窗口前请导出它的报告。</translation>
    </message>
    <message>
        <source>Your turn: find what is wrong and fix it in the workbench (Fix it yourself in the workbench…); its checks judge your fix. The lab&apos;s own fix is not run here.</source>
        <translation>轮到你了：找出问题所在，并在工作台中修好它（“在工作台中自己修复…”）；实验的检查步骤会评判你的修复。这里不会运行实验自带的修复。</translation>
    </message>
    <message>
        <source>Teacher: run the lab&apos;s fix</source>
        <translation>教师：运行实验自带的修复</translation>
    </message>
    <message>
        <source>Run the reference fix and the checks after it in this window (a demonstration); students fix it themselves in the workbench</source>
        <translation>在本窗口中运行参考修复及其后的检查（用于演示）；学生应在工作台中自己修复</translation>
    </message>
    <message>
        <source>Folder of lab reports</source>
        <translation>实验报告所在文件夹</translation>
    </message>
    <message>
        <source>Class summary…</source>
        <translation>全班汇总…</translation>
    </message>
    <message>
        <source>Read a folder of lab reports (the students&apos; exported HTML files) into one table: student, lab, score</source>
        <translation>把一个文件夹里的实验报告（学生导出的 HTML 文件）读成一张表：学生、实验、得分</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>rdmalab::app::LessonController</name>
    <message>
        <source>The engine is not running: press Restart engine, or open a recording.</source>
        <translation>引擎没有运行：请按“重启引擎”，或打开一个录制。</translation>
    </message>
    <message>
        <source>Replaying %1 — recorded on %2 (%3) at %4</source>
        <translation>正在回放 %1 — 录制于 %2 (%3)，时间 %4</translation>
    </message>
    <message>
        <source>an unknown device</source>
        <translation>未知设备</translation>
    </message>
    <message>
        <source>unknown host</source>
        <translation>未知主机</translation>
    </message>
</context>
<context>
    <name>rdmalab::app::LessonToolBars</name>
    <message>
        <source>Lesson</source>
        <translation>课程</translation>
    </message>
    <message>
        <source>Player</source>
        <translation>播放控制</translation>
    </message>
    <message>
        <source> Lesson </source>
        <translation> 课程 </translation>
    </message>
    <message>
        <source>  Size </source>
        <translation>  大小 </translation>
    </message>
    <message>
        <source> B</source>
        <translation> B</translation>
    </message>
    <message>
        <source>  Message </source>
        <translation>  消息 </translation>
    </message>
    <message>
        <source>▶ Play</source>
        <translation>▶ 播放</translation>
    </message>
    <message>
        <source>Perform the steps one after another</source>
        <translation>一步接一步地执行各个步骤</translation>
    </message>
    <message>
        <source>❚❚ Pause</source>
        <translation>❚❚ 暂停</translation>
    </message>
    <message>
        <source>Stop after the current step</source>
        <translation>在当前步骤之后停止</translation>
    </message>
    <message>
        <source>Step ▷</source>
        <translation>单步 ▷</translation>
    </message>
    <message>
        <source>Perform exactly the next real verbs step</source>
        <translation>只执行下一个真实的 verbs 步骤</translation>
    </message>
    <message>
        <source>⟲ Reset</source>
        <translation>⟲ 重置</translation>
    </message>
    <message>
        <source>Release everything and start the lesson again</source>
        <translation>释放所有资源，重新开始本课程</translation>
    </message>
    <message>
        <source>  Speed </source>
        <translation>  速度 </translation>
    </message>
    <message>
        <source>Animation speed</source>
        <translation>动画速度</translation>
    </message>
    <message>
        <source>The language of the interface and of the lesson texts</source>
        <translation>界面和课文的语言</translation>
    </message>
    <message>
        <source>Measure TCP vs RDMA…</source>
        <translation>测量 TCP 对比 RDMA…</translation>
    </message>
    <message>
        <source>Open the measurement window: latency and bandwidth of TCP and RDMA, live charts</source>
        <translation>打开测量窗口：TCP 与 RDMA 的延迟和带宽，实时图表</translation>
    </message>
    <message>
        <source>To the end ▶▶</source>
        <translation>跳到结尾 ▶▶</translation>
    </message>
    <message>
        <source>Replay the rest of the recording as fast as the window can show it: the picture jumps to where the replay is instead of animating every step</source>
        <translation>以窗口能跟上的最快速度回放录制的剩余部分：图示直接跳到回放所到之处，不再逐步播放动画</translation>
    </message>
    <message>
        <source>◁ Back</source>
        <translation>◁ 后退</translation>
    </message>
    <message>
        <source>Show the picture as the step before the one shown left it (Step and Play go on from where the lesson is)</source>
        <translation>显示当前所示步骤之前那一步结束时的图示（“单步”和“播放”仍从课程当前所在之处继续）</translation>
    </message>
</context>
<context>
    <name>rdmalab::app::MainMenus</name>
    <message>
        <source>Save trace</source>
        <translation>保存轨迹</translation>
    </message>
    <message>
        <source>Export PNG</source>
        <translation>导出 PNG</translation>
    </message>
    <message>
        <source>PNG (*.png)</source>
        <translation>PNG (*.png)</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open recording…</source>
        <translation>打开录制(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Save trace…</source>
        <translation>保存轨迹(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Export view as PNG…</source>
        <translation>将视图导出为 PNG(&amp;E)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>P&amp;anels</source>
        <translation>面板(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Devices</source>
        <translation>设备(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;QP state machine</source>
        <translation>QP 状态机(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Memory</source>
        <translation>内存(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Timeline</source>
        <translation>时间线(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Inspector</source>
        <translation>检查器(&amp;I)</translation>
    </message>
    <message>
        <source>&amp;Labs</source>
        <translation>实验(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Lab browser…</source>
        <translation>实验浏览器(&amp;L)…</translation>
    </message>
    <message>
        <source>&amp;Workbench…</source>
        <translation>工作台(&amp;W)…</translation>
    </message>
    <message>
        <source>&amp;Engine</source>
        <translation>引擎(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Restart engine</source>
        <translation>重启引擎(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Where the engine runs…</source>
        <translation>引擎在哪里运行(&amp;W)…</translation>
    </message>
    <message>
        <source>The VM&apos;s &amp;console log</source>
        <translation>虚拟机的控制台日志(&amp;C)</translation>
    </message>
    <message>
        <source>Traces (*.jsonl)</source>
        <translation>轨迹 (*.jsonl)</translation>
    </message>
    <message>
        <source>&amp;Projector layout (the picture full screen, large, high contrast)</source>
        <translation>投影布局(&amp;P)（画面全屏、大字、高对比度）</translation>
    </message>
</context>
<context>
    <name>rdmalab::app::MainWindow</name>
    <message>
        <source>Lesson finished: the device refused the request (%1), as this fault is meant to show; see the inspector for what it left unchanged.</source>
        <translation>课程结束：设备拒绝了这个请求（%1），这正是这个故障要展示的；它没有改动哪些内容，请看检查器。</translation>
    </message>
    <message>
        <source>an error</source>
        <translation>一个错误</translation>
    </message>
    <message>
        <source>There is no lesson &apos;%1&apos;; the lessons are: %2</source>
        <translation>没有课程“%1”；现有课程：%2</translation>
    </message>
    <message>
        <source>Lesson finished: the data moved and was verified.</source>
        <translation>课程完成：数据已传送并通过校验。</translation>
    </message>
    <message>
        <source>Lesson finished with an error: see the inspector.</source>
        <translation>课程结束但出错：请查看检查器。</translation>
    </message>
    <message>
        <source>There is no unfinished session to reopen in %1.</source>
        <translation>%1 中没有可重新打开的未结束会话。</translation>
    </message>
    <message>
        <source>Some lab files could not be loaded: %1</source>
        <translation>部分实验文件无法载入：%1</translation>
    </message>
    <message>
        <source>rdmalab — RDMA data paths, step by step</source>
        <translation>rdmalab — 一步一步看 RDMA 数据路径</translation>
    </message>
    <message>
        <source>The engine process stopped.</source>
        <translation>引擎进程已停止。</translation>
    </message>
    <message>
        <source>No RDMA device: create a SoftRoCE device, or open a recording.</source>
        <translation>没有 RDMA 设备：请创建一个 SoftRoCE 设备，或打开一个录制。</translation>
    </message>
    <message>
        <source>Starting the engine…</source>
        <translation>正在启动引擎…</translation>
    </message>
    <message>
        <source>No lessons found in %1. %2</source>
        <translation>在 %1 中没有找到课程。%2</translation>
    </message>
    <message>
        <source>Autosave failed: %1
This session is kept in memory only: save it with File ▸ Save trace… before you start another lesson.</source>
        <translation>自动保存失败：%1
本次会话只保存在内存中：开始另一节课程之前，请用“文件 ▸ 保存轨迹…”保存它。</translation>
    </message>
    <message>
        <source>Saved %1 events to %2</source>
        <translation>已将 %1 个事件保存到 %2</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>REPLAY of a recording of a live session that ended without being closed — device %1 on %2, recorded %3</source>
        <translation>回放一次未正常关闭就结束的实时会话的录制 — 设备 %1，主机 %2，录制于 %3</translation>
    </message>
    <message>
        <source>REPLAY of a recording — device %1 on %2, recorded %3</source>
        <translation>回放录制 — 设备 %1，主机 %2，录制于 %3</translation>
    </message>
    <message>
        <source>Live on %1</source>
        <translation>正在 %1 上实时运行</translation>
    </message>
    <message>
        <source>  (SoftRoCE: software RDMA — timings are not hardware timings)</source>
        <translation>  （SoftRoCE：软件 RDMA — 时间不是硬件时间）</translation>
    </message>
    <message>
        <source>The recording&apos;s note: %1</source>
        <translation>录制的备注：%1</translation>
    </message>
    <message>
        <source>The session&apos;s note: %1</source>
        <translation>本次会话的备注：%1</translation>
    </message>
    <message>
        <source>Engine %1 ready (trace format %2)</source>
        <translation>引擎 %1 已就绪（轨迹格式 %2）</translation>
    </message>
    <message>
        <source>SoftRoCE (software)</source>
        <translation>SoftRoCE（软件）</translation>
    </message>
    <message>
        <source>, observed, event #%1)</source>
        <translation>，观察到的，事件 #%1）</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>REPLAY</source>
        <translation>回放</translation>
    </message>
    <message>
        <source>of a recording made on %1 (%2) at %3: these events were observed then, not now.</source>
        <translation>录制于 %1 (%2)，时间 %3：这些事件是当时观察到的，不是现在。</translation>
    </message>
    <message>
        <source>The recording&apos;s note:</source>
        <translation>录制的备注：</translation>
    </message>
    <message>
        <source>No ACTIVE RDMA port on %1: create a SoftRoCE device there, or open a recording.</source>
        <translation>%1 上没有处于 ACTIVE 状态的 RDMA 端口：请在那里创建一个 SoftRoCE 设备，或打开一个录制。</translation>
    </message>
    <message>
        <source>This machine has no RDMA device: the engine runs in the SoftRoCE VM instead (Engine ▸ Where the engine runs… to choose).</source>
        <translation>本机没有 RDMA 设备：引擎改在 SoftRoCE 虚拟机中运行（可在“引擎 ▸ 引擎在哪里运行…”中选择）。</translation>
    </message>
    <message>
        <source>%1 is ready: lessons run on it.</source>
        <translation>%1 已就绪：课程将在它上面运行。</translation>
    </message>
    <message>
        <source>Finished: %1 of %2 expectations broken; see the inspector for what the device did.</source>
        <translation>已结束：%2 条预期中有 %1 条不成立；设备实际做了什么，请看检查器。</translation>
    </message>
    <message>
        <source>Lab finished: every expectation held (%1).</source>
        <translation>实验结束：所有预期都成立（%1 条）。</translation>
    </message>
</context>
<context>
    <name>rdmalab::app::MemoryView</name>
    <message>
        <source>A&apos;s buffer</source>
        <translation>A 的缓冲区</translation>
    </message>
    <message>
        <source>B&apos;s buffer</source>
        <translation>B 的缓冲区</translation>
    </message>
    <message>
        <source> · %1 B · lkey 0x%2 · rkey 0x%3</source>
        <translation> · %1 B · lkey 0x%2 · rkey 0x%3</translation>
    </message>
    <message>
        <source>(not registered yet)</source>
        <translation>（尚未注册）</translation>
    </message>
    <message>
        <source>observed %1</source>
        <translation>观察到 %1</translation>
    </message>
    <message>
        <source>%1&apos;s buffer</source>
        <translation>%1 的缓冲区</translation>
    </message>
</context>
<context>
    <name>rdmalab::app::PipelineChart</name>
    <message>
        <source>No pipeline in this measurement. Tick &quot;Trace every work request&quot; (or start rdmalab with --trace-wr) and measure an RDMA kind: each run is then measured once untraced and once with every post, poll and completion traced, and the traced run&apos;s work requests in flight are drawn here as it goes.</source>
        <translation>此测量没有流水线数据。勾选“跟踪每个工作请求”（或用 --trace-wr 启动 rdmalab）并测量一种 RDMA 类型：每个测量先不跟踪测一次，再跟踪每次投递、轮询和完成项测一次，跟踪那次在途的工作请求会在这里边测边画。</translation>
    </message>
    <message>
        <source>most work requests in flight in the slice</source>
        <translation>该时间片内最多的在途工作请求</translation>
    </message>
    <message>
        <source>in flight at the slice&apos;s end</source>
        <translation>时间片结束时在途的工作请求</translation>
    </message>
    <message>
        <source>seconds since the traced run&apos;s first work request</source>
        <translation>自跟踪测量的第一个工作请求起的秒数</translation>
    </message>
    <message>
        <source>work requests in flight</source>
        <translation>在途工作请求</translation>
    </message>
    <message>
        <source>the device</source>
        <translation>该设备</translation>
    </message>
    <message>
        <source>%1 (SoftRoCE, software)</source>
        <translation>%1（SoftRoCE，软件）</translation>
    </message>
    <message>
        <source>%1 (hardware)</source>
        <translation>%1（硬件）</translation>
    </message>
    <message>
        <source>%1 %2 on %3: %4 posts per doorbell, %5 completions per poll, %6 % of polls empty</source>
        <translation>%1 %2，在 %3 上：每次门铃 %4 个投递，每次轮询 %5 个完成项，%6 % 的轮询为空</translation>
    </message>
    <message>
        <source>, signaled 1 in %1</source>
        <translation>，每 %1 个发出一个信号完成</translation>
    </message>
    <message>
        <source>; %1 slices over %2 s</source>
        <translation>；%2 秒内 %1 个时间片</translation>
    </message>
    <message>
        <source>Tracing every work request: what it cost appears when the run ends.</source>
        <translation>跟踪每个工作请求：其代价在测量结束时给出。</translation>
    </message>
    <message>
        <source>Tracing every work request: untraced/traced p50 latency %1 on %2</source>
        <translation>跟踪每个工作请求：不跟踪/跟踪的 p50 延迟之比 %1，在 %2 上</translation>
    </message>
    <message>
        <source>Tracing every work request: traced/untraced %1 on %2</source>
        <translation>跟踪每个工作请求：跟踪/不跟踪之比 %1，在 %2 上</translation>
    </message>
    <message>
        <source>, +%1 per work request</source>
        <translation>，每个工作请求多花 %1</translation>
    </message>
    <message>
        <source>, %1 records dropped (the ring was full)</source>
        <translation>，丢弃了 %1 条记录（环形缓冲区已满）</translation>
    </message>
    <message>
        <source> — one untraced and one traced run; runs vary, `%1` gives medians</source>
        <translation> — 不跟踪和跟踪各测一次；每次测量会有波动，`%1` 给出中位数</translation>
    </message>
    <message>
        <source> — medians of %1 untraced and %1 traced runs, alternated</source>
        <translation> — %1 次不跟踪和 %1 次跟踪的测量交替进行，取中位数</translation>
    </message>
    <message>
        <source>send-queue depth %1</source>
        <translation>发送队列深度 %1</translation>
    </message>
    <message>
        <source>Work requests in flight against the send-queue depth — %1 %2 on %3</source>
        <translation>在途工作请求与发送队列深度 — %1 %2，在 %3 上</translation>
    </message>
</context>
<context>
    <name>rdmalab::app::PredictionBox</name>
    <message>
        <source>Step %1 · %2</source>
        <translation>第 %1 步 · %2</translation>
    </message>
    <message>
        <source>&lt;b style=&apos;color:#1b6e20&apos;&gt;✓ Right.&lt;/b&gt; You predicted “%1”; the device did exactly that.</source>
        <translation>&lt;b style=&apos;color:#1b6e20&apos;&gt;✓ 预测正确。&lt;/b&gt;你预测的是“%1”；设备正是这样做的。</translation>
    </message>
    <message>
        <source>&lt;b style=&apos;color:#b00020&apos;&gt;✗ Not what happened.&lt;/b&gt; You predicted “%1”; the device did “%2”.</source>
        <translation>&lt;b style=&apos;color:#b00020&apos;&gt;✗ 与实际不符。&lt;/b&gt;你预测的是“%1”；设备的实际结果是“%2”。</translation>
    </message>
    <message>
        <source>No prediction made. The device did “%1”.</source>
        <translation>没有做预测。设备的实际结果是“%1”。</translation>
    </message>
    <message>
        <source>Predict first</source>
        <translation>先预测</translation>
    </message>
    <message>
        <source>Lock in and run ▷</source>
        <translation>锁定并运行 ▷</translation>
    </message>
    <message>
        <source>Skip</source>
        <translation>跳过</translation>
    </message>
    <message>
        <source>Run the step without a prediction (it counts as not made)</source>
        <translation>不做预测直接运行这一步（记为未预测）</translation>
    </message>
</context>
<context>
    <name>rdmalab::app::ProjectorLayout</name>
    <message>
        <source>Space step</source>
        <translation>空格 单步</translation>
    </message>
    <message>
        <source>← back</source>
        <translation>← 后退</translation>
    </message>
    <message>
        <source>P play</source>
        <translation>P 播放</translation>
    </message>
    <message>
        <source>+/− zoom, drag to pan</source>
        <translation>+/− 缩放，拖动平移</translation>
    </message>
    <message>
        <source>F5 leave</source>
        <translation>F5 退出</translation>
    </message>
    <message>
        <source>&amp;Projector layout (the picture full screen, large, high contrast)</source>
        <translation>投影布局(&amp;P)（画面全屏、大字、高对比度）</translation>
    </message>
</context>
<context>
    <name>rdmalab::app::QpStateView</name>
    <message>
        <source>UC/UD: send error</source>
        <translation>UC/UD：发送错误</translation>
    </message>
    <message>
        <source>any state but RESET → ERR; any state → RESET</source>
        <translation>除 RESET 外的任何状态 → ERR；任何状态 → RESET</translation>
    </message>
    <message>
        <source>%1: QP %2 (%3) %4</source>
        <translation>%1：QP %2 (%3) %4</translation>
    </message>
    <message>
        <source>%1: no QP yet</source>
        <translation>%1：还没有 QP</translation>
    </message>
    <message>
        <source>  — last %1 set %2</source>
        <translation>  — 上一次 %1 设置了 %2</translation>
    </message>
</context>
<context>
    <name>rdmalab::app::QuestionsPage</name>
    <message>
        <source>Question %1</source>
        <translation>问题 %1</translation>
    </message>
    <message>
        <source> (tick every right answer)</source>
        <translation>（选出所有正确答案）</translation>
    </message>
    <message>
        <source>Check my answer</source>
        <translation>检查我的答案</translation>
    </message>
    <message>
        <source>Questions (%1)</source>
        <translation>问题（%1）</translation>
    </message>
    <message>
        <source>Choose an answer first.</source>
        <translation>请先选择一个答案。</translation>
    </message>
    <message>
        <source>&lt;b style=&apos;color:#1b6e20&apos;&gt;✓ Right.&lt;/b&gt;</source>
        <translation>&lt;b style=&apos;color:#1b6e20&apos;&gt;✓ 回答正确。&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b style=&apos;color:#b00020&apos;&gt;✗ Not quite.&lt;/b&gt; The right answer: %1.</source>
        <translation>&lt;b style=&apos;color:#b00020&apos;&gt;✗ 不完全对。&lt;/b&gt;正确答案：%1。</translation>
    </message>
</context>
<context>
    <name>rdmalab::app::RecordingOpener</name>
    <message>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <source>Still opening the previous recording: wait until it is shown.</source>
        <translation>上一个录制还在打开：请等它显示出来。</translation>
    </message>
    <message>
        <source>Open recording</source>
        <translation>打开录制</translation>
    </message>
    <message>
        <source>Traces (*.jsonl)</source>
        <translation>轨迹 (*.jsonl)</translation>
    </message>
    <message>
        <source>Cannot open the recording:
%1</source>
        <translation>无法打开录制：
%1</translation>
    </message>
    <message>
        <source>Bad recording</source>
        <translation>录制文件有误</translation>
    </message>
    <message>
        <source>%1 (a live session that ended without being closed)</source>
        <translation>%1（一次未正常关闭就结束的实时会话）</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Opening %1 was cancelled.</source>
        <translation>已取消打开 %1。</translation>
    </message>
</context>
<context>
    <name>rdmalab::app::RecoveryBanner</name>
    <message>
        <source>The previous session (started %1, %2 events) ended without being closed: the app was killed or crashed. Its autosave keeps everything up to the last complete event: %3</source>
        <translation>上一次会话（开始于 %1，%2 个事件）没有正常关闭就结束了：应用程序被终止或崩溃。它的自动保存文件保留了直到最后一个完整事件的全部内容：%3</translation>
    </message>
    <message>
        <source>
The last line was incomplete and is left out (%1).</source>
        <translation>
最后一行不完整，已略去（%1）。</translation>
    </message>
    <message>
        <source>
%1 more unfinished sessions after this one.</source>
        <translation>
在这之后还有 %1 个未结束的会话。</translation>
    </message>
    <message>
        <source>Reopen</source>
        <translation>重新打开</translation>
    </message>
    <message>
        <source>Open the session as a replay of what was recorded before it ended</source>
        <translation>把该会话作为回放打开，回放它结束前录下的内容</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>忽略</translation>
    </message>
    <message>
        <source>Keep the file, but do not offer it again</source>
        <translation>保留文件，但不再提示</translation>
    </message>
</context>
<context>
    <name>rdmalab::app::SessionLines</name>
    <message>
        <source>Step %1 of %2: %3</source>
        <translation>第 %1 步，共 %2 步：%3</translation>
    </message>
    <message>
        <source>Ready: %1 steps planned. Press Step or Play.</source>
        <translation>就绪：计划了 %1 个步骤。请按“单步”或“播放”。</translation>
    </message>
</context>
<context>
    <name>rdmalab::app::SshTransport</name>
    <message>
        <source>&apos;%1&apos; is not an SSH engine host: %2 (the form is ssh://[USER@]HOST[:PORT])</source>
        <translation>“%1”不是一个 SSH 引擎主机：%2（格式为 ssh://[USER@]HOST[:PORT]）</translation>
    </message>
    <message>
        <source>it does not start with ssh://</source>
        <translation>它不是以 ssh:// 开头</translation>
    </message>
    <message>
        <source>it names no host</source>
        <translation>其中没有主机名</translation>
    </message>
    <message>
        <source>the port &apos;%1&apos; is not a number from 1 to 65535</source>
        <translation>端口“%1”不是 1 到 65535 之间的数字</translation>
    </message>
    <message>
        <source>a path after the host</source>
        <translation>主机名后面带有路径</translation>
    </message>
    <message>
        <source>something after the host that ssh would not take</source>
        <translation>主机名后面有 ssh 不接受的内容</translation>
    </message>
    <message>
        <source>a name that starts with &apos;-&apos;</source>
        <translation>名称以“-”开头</translation>
    </message>
    <message>
        <source>Could not start ssh (%1): %2.
Fix: install the SSH client: sudo apt-get install openssh-client (resources/scripts/install-deps.sh installs it).</source>
        <translation>无法启动 ssh (%1)：%2。
解决办法：安装 SSH 客户端：sudo apt-get install openssh-client（resources/scripts/install-deps.sh 会安装它）。</translation>
    </message>
    <message>
        <source>%1 over SSH</source>
        <translation>%1（通过 SSH）</translation>
    </message>
    <message>
        <source>Connecting to %1 over SSH…</source>
        <translation>正在通过 SSH 连接 %1…</translation>
    </message>
    <message>
        <source>The connection to the engine on %1 ended: the ssh process was killed.</source>
        <translation>与 %1 上引擎的连接已结束：ssh 进程被终止了。</translation>
    </message>
    <message>
        <source>The connection to the engine on %1 ended (ssh exited with status 255): the engine there was stopped, or the network to %1 was lost.</source>
        <translation>与 %1 上引擎的连接已结束（ssh 以状态 255 退出）：那里的引擎被停止了，或者到 %1 的网络断开了。</translation>
    </message>
    <message>
        <source>The engine on %1 exited with status %2.</source>
        <translation>%1 上的引擎以状态 %2 退出。</translation>
    </message>
    <message>
        <source>
Nothing you recorded is lost: the trace so far stays in the timeline and in the session&apos;s autosave. Press Restart engine to connect again.</source>
        <translation>
你录制的内容没有丢失：到目前为止的轨迹保留在时间线中，也保存在本次会话的自动保存文件里。按“重启引擎”重新连接。</translation>
    </message>
    <message>
        <source>(ssh said nothing)</source>
        <translation>（ssh 没有输出任何信息）</translation>
    </message>
    <message>
        <source>ssh cannot find the host %1:
%2
Fix: check the name. A short name needs a Host entry in ~/.ssh/config (with its HostName) or an entry in DNS or /etc/hosts.</source>
        <translation>ssh 找不到主机 %1：
%2
解决办法：检查名称。简短的名称需要在 ~/.ssh/config 中有一个 Host 条目（带 HostName），或在 DNS 或 /etc/hosts 中有对应条目。</translation>
    </message>
    <message>
        <source>%1 refused the SSH connection: no SSH server listens on that port.
%2
Fix: start one on %1 (Debian: sudo apt-get install openssh-server), or name its port: ssh://HOST:PORT.</source>
        <translation>%1 拒绝了 SSH 连接：该端口上没有 SSH 服务器在监听。
%2
解决办法：在 %1 上启动一个（Debian：sudo apt-get install openssh-server），或者写明它的端口：ssh://HOST:PORT。</translation>
    </message>
    <message>
        <source>%1 cannot be reached over SSH.
%2
Fix: check that %1 is on and on this network, and that no firewall between blocks SSH (TCP port 22, or the port you named).</source>
        <translation>无法通过 SSH 到达 %1。
%2
解决办法：检查 %1 已开机并在这个网络上，且中间没有防火墙阻断 SSH（TCP 端口 22，或你指定的端口）。</translation>
    </message>
    <message>
        <source>%1 refused the login.
%2
rdmalab runs ssh without asking for a password or a key&apos;s passphrase (it has no terminal to ask on), so the login must work with a key. Fix: run `ssh-copy-id %3` once in a terminal, and `ssh-add` if your key has a passphrase; then `ssh %3 true` must work without a prompt.</source>
        <translation>%1 拒绝了登录。
%2
rdmalab 运行 ssh 时不会询问密码或密钥口令（它没有终端可以询问），所以登录必须用密钥完成。解决办法：在终端里运行一次 `ssh-copy-id %3`，如果密钥有口令再运行 `ssh-add`；之后 `ssh %3 true` 必须无需任何提示就能成功。</translation>
    </message>
    <message>
        <source>ssh does not trust %1&apos;s host key.
%2
Fix: run `ssh %3` once in a terminal, compare the key&apos;s fingerprint with what the host&apos;s administrator tells you, and accept it. If ssh says the key has CHANGED, find out why before you remove the old one with `ssh-keygen -R HOST`.</source>
        <translation>ssh 不信任 %1 的主机密钥。
%2
解决办法：在终端里运行一次 `ssh %3`，把密钥指纹与主机管理员告诉你的核对后接受它。如果 ssh 说密钥已经改变 (CHANGED)，先查明原因，再用 `ssh-keygen -R HOST` 删除旧密钥。</translation>
    </message>
    <message>
        <source>%1 has no rdmalab-cli that ssh can run (%2).
%3
Fix: install rdmalab %4 on %1 (the same version as this app), or give the path of its rdmalab-cli with --engine-program PATH. A command run over ssh gets the login&apos;s PATH without what ~/.bashrc adds.</source>
        <translation>%1 上没有 ssh 能运行的 rdmalab-cli (%2)。
%3
解决办法：在 %1 上安装 rdmalab %4（与本应用相同的版本），或用 --engine-program PATH 指定那里的 rdmalab-cli 路径。通过 ssh 运行的命令只得到登录时的 PATH，不包含 ~/.bashrc 添加的部分。</translation>
    </message>
    <message>
        <source>ssh to %1 failed before the engine started (exit status %2).
%3
Fix: run `ssh %4 rdmalab-cli --version` in a terminal to see the whole story.</source>
        <translation>在引擎启动之前，到 %1 的 ssh 就失败了（退出状态 %2）。
%3
解决办法：在终端里运行 `ssh %4 rdmalab-cli --version` 查看完整信息。</translation>
    </message>
</context>
<context>
    <name>rdmalab::app::TimelineModel</name>
    <message>
        <source>Time (ms)</source>
        <translation>时间 (ms)</translation>
    </message>
    <message>
        <source>Side</source>
        <translation>端</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>事件</translation>
    </message>
</context>
<context>
    <name>rdmalab::app::TimelinePanel</name>
    <message>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <source>All kinds</source>
        <translation>所有类型</translation>
    </message>
    <message>
        <source>Both sides</source>
        <translation>双方</translation>
    </message>
    <message>
        <source>A (requester)</source>
        <translation>A（请求方）</translation>
    </message>
    <message>
        <source>B (responder)</source>
        <translation>B（响应方）</translation>
    </message>
    <message>
        <source>Device-wide</source>
        <translation>设备范围</translation>
    </message>
</context>
<context>
    <name>rdmalab::app::VmTransport</name>
    <message>
        <source>Could not start qemu (%1): %2.</source>
        <translation>无法启动 qemu（%1）：%2。</translation>
    </message>
    <message>
        <source>Install it: sudo apt-get install qemu-system-x86 (or run resources/scripts/install-deps.sh).</source>
        <translation>请安装它：sudo apt-get install qemu-system-x86（或运行 resources/scripts/install-deps.sh）。</translation>
    </message>
    <message>
        <source>SoftRoCE VM (qemu, software CPU emulation)</source>
        <translation>SoftRoCE 虚拟机（qemu，软件 CPU 模拟）</translation>
    </message>
    <message>
        <source>qemu-system-x86_64 is not installed (%1): the SoftRoCE VM runs under it.</source>
        <translation>未安装 qemu-system-x86_64（%1）：SoftRoCE 虚拟机需要它来运行。</translation>
    </message>
    <message>
        <source>not on PATH</source>
        <translation>不在 PATH 中</translation>
    </message>
    <message>
        <source>The SoftRoCE VM&apos;s kernel is not prepared: %1 does not exist (%2).</source>
        <translation>SoftRoCE 虚拟机的内核尚未准备好：%1 不存在（%2）。</translation>
    </message>
    <message>
        <source>Run %1 once: it downloads Debian&apos;s kernel and builds the VM&apos;s initramfs into %2.</source>
        <translation>请运行一次 %1：它会下载 Debian 的内核，并在 %2 中构建虚拟机的 initramfs。</translation>
    </message>
    <message>
        <source>The SoftRoCE VM&apos;s kernel or initramfs is missing: &apos;%1&apos; cannot be read.</source>
        <translation>SoftRoCE 虚拟机的内核或 initramfs 缺失：无法读取“%1”。</translation>
    </message>
    <message>
        <source>Run %1 again: it downloads Debian&apos;s kernel and builds the VM&apos;s initramfs into %2.</source>
        <translation>请再次运行 %1：它会下载 Debian 的内核，并在 %2 中构建虚拟机的 initramfs。</translation>
    </message>
    <message>
        <source>The engine &apos;%1&apos; is not an executable file.</source>
        <translation>引擎“%1”不是可执行文件。</translation>
    </message>
    <message>
        <source>Build it with `cmake --build --preset dev` or put rdmalab-cli next to the app.</source>
        <translation>请用 `cmake --build --preset dev` 构建它，或把 rdmalab-cli 放在应用旁边。</translation>
    </message>
    <message>
        <source>The engine &apos;%1&apos; lies directly in %2, which the VM cannot share.</source>
        <translation>引擎“%1”直接位于 %2 中，虚拟机无法共享该目录。</translation>
    </message>
    <message>
        <source>Put rdmalab-cli in a directory of its own.</source>
        <translation>请把 rdmalab-cli 放到一个单独的目录中。</translation>
    </message>
    <message>
        <source>Could not create the VM&apos;s runtime directory in %1: %2.</source>
        <translation>无法在 %1 中创建虚拟机的运行时目录：%2。</translation>
    </message>
    <message>
        <source>Make %1 writable, or set XDG_RUNTIME_DIR to a writable directory.</source>
        <translation>请让 %1 可写，或把 XDG_RUNTIME_DIR 设为一个可写的目录。</translation>
    </message>
    <message>
        <source>Could not write the VM&apos;s console log %1: %2.</source>
        <translation>无法写入虚拟机的控制台日志 %1：%2。</translation>
    </message>
    <message>
        <source>Make %1 writable.</source>
        <translation>请让 %1 可写。</translation>
    </message>
    <message>
        <source>Could not write the VM&apos;s control files in %1.</source>
        <translation>无法在 %1 中写入虚拟机的控制文件。</translation>
    </message>
    <message>
        <source>Starting the SoftRoCE VM… %1 s</source>
        <translation>正在启动 SoftRoCE 虚拟机… %1 秒</translation>
    </message>
    <message>
        <source>Starting the engine in the SoftRoCE VM… %1 s</source>
        <translation>正在 SoftRoCE 虚拟机中启动引擎… %1 秒</translation>
    </message>
    <message>
        <source>The engine in the SoftRoCE VM did not answer within %1 s.</source>
        <translation>SoftRoCE 虚拟机中的引擎在 %1 秒内没有应答。</translation>
    </message>
    <message>
        <source>The SoftRoCE VM did not start its engine within %1 s (last stage of its init: %2).</source>
        <translation>SoftRoCE 虚拟机没有在 %1 秒内启动引擎（其 init 的最后阶段：%2）。</translation>
    </message>
    <message>
        <source>Look at the console&apos;s lines above; run %1 again (it rebuilds the initramfs), then press Restart engine. Under software emulation a busy machine boots slowly.</source>
        <translation>请查看上面的控制台输出；再次运行 %1（它会重建 initramfs），然后按“重启引擎”。在软件模拟下，繁忙的机器启动得很慢。</translation>
    </message>
    <message>
        <source>The guest&apos;s init said: %1</source>
        <translation>客户机的 init 报告：%1</translation>
    </message>
    <message>
        <source>Last lines of the VM&apos;s console (%1):</source>
        <translation>虚拟机控制台的最后几行（%1）：</translation>
    </message>
    <message>
        <source>qemu crashed</source>
        <translation>qemu 崩溃了</translation>
    </message>
    <message>
        <source>qemu exited with status %1</source>
        <translation>qemu 以状态 %1 退出</translation>
    </message>
    <message>
        <source>The SoftRoCE VM stopped before its engine started (%1).</source>
        <translation>SoftRoCE 虚拟机在其引擎启动之前就停止了（%1）。</translation>
    </message>
    <message>
        <source>Read the console&apos;s lines above; run %1 again (it rebuilds the kernel and the initramfs the VM boots), then press Restart engine.</source>
        <translation>请阅读上面的控制台输出；再次运行 %1（它会重建虚拟机启动所用的内核和 initramfs），然后按“重启引擎”。</translation>
    </message>
    <message>
        <source>The SoftRoCE VM stopped (%1), and its engine with it.</source>
        <translation>SoftRoCE 虚拟机停止了（%1），其中的引擎也随之停止。</translation>
    </message>
    <message>
        <source>The engine in the SoftRoCE VM exited with status %1, and the VM powered off.</source>
        <translation>SoftRoCE 虚拟机中的引擎以状态 %1 退出，虚拟机已关机。</translation>
    </message>
    <message>
        <source>Nothing you recorded is lost: the trace so far stays in the timeline and can be saved. Press Restart engine to boot the VM again.</source>
        <translation>你录制的内容不会丢失：目前为止的轨迹仍在时间线中，可以保存。按“重启引擎”再次启动虚拟机。</translation>
    </message>
    <message>
        <source>The SoftRoCE VM&apos;s kernel is not prepared in %1: %2</source>
        <translation>SoftRoCE 虚拟机的内核尚未在 %1 中准备好：%2</translation>
    </message>
    <message>
        <source>Unpacking Debian&apos;s kernel for the SoftRoCE VM…</source>
        <translation>正在解包 SoftRoCE 虚拟机所用的 Debian 内核…</translation>
    </message>
    <message>
        <source>Building the SoftRoCE VM&apos;s initramfs…</source>
        <translation>正在构建 SoftRoCE 虚拟机的 initramfs…</translation>
    </message>
    <message>
        <source>Downloading Debian&apos;s kernel for the SoftRoCE VM (first use, once)…</source>
        <translation>正在下载 SoftRoCE 虚拟机所用的 Debian 内核（首次使用，仅此一次）…</translation>
    </message>
    <message>
        <source>Downloading Debian&apos;s kernel for the SoftRoCE VM (first use, once): %1 of %2 MB</source>
        <translation>正在下载 SoftRoCE 虚拟机所用的 Debian 内核（首次使用，仅此一次）：%1 MB，共 %2 MB</translation>
    </message>
    <message>
        <source>Could not take the SoftRoCE VM&apos;s lock file in %1.</source>
        <translation>无法在 %1 中获取 SoftRoCE 虚拟机的锁文件。</translation>
    </message>
    <message>
        <source>Check that the directory is writable, or set RDMALAB_VM_CACHE to one that is.</source>
        <translation>请确认该目录可写，或把 RDMALAB_VM_CACHE 设为一个可写的目录。</translation>
    </message>
    <message>
        <source>Another rdmalab (process %1, %2) is running the SoftRoCE VM already: one VM at a time runs per user, since a second would share the same emulated CPUs and make both slow.</source>
        <translation>另一个 rdmalab（进程 %1，%2）已在运行 SoftRoCE 虚拟机：每个用户同一时间只运行一台虚拟机，因为第二台会与第一台分享同样的模拟 CPU，让两台都变慢。</translation>
    </message>
    <message>
        <source>program unknown</source>
        <translation>程序未知</translation>
    </message>
    <message>
        <source>Work in that window, or close it and press Restart engine here. Engine ▸ Where the engine runs… can point this window at an SSH host instead.</source>
        <translation>请在那个窗口中操作，或关闭它后在这里按“重启引擎”。也可以用“引擎 ▸ 引擎在哪里运行…”让本窗口改用一台 SSH 主机。</translation>
    </message>
    <message>
        <source>the test bed&apos;s prepare.sh (installed: /usr/share/rdmalab/softroce/prepare.sh; or name one in RDMALAB_VM_PREPARE)</source>
        <translation>测试平台的 prepare.sh（安装后位于 /usr/share/rdmalab/softroce/prepare.sh；也可以用 RDMALAB_VM_PREPARE 指定一个）</translation>
    </message>
</context>
<context>
    <name>rdmalab::app::WorkbenchControls</name>
    <message>
        <source>RC: acknowledged, every opcode; UC: no ACKs, no READ and no atomics</source>
        <translation>RC：有确认，支持所有操作码；UC：没有 ACK，不支持 READ 和原子操作</translation>
    </message>
    <message>
        <source>Transport</source>
        <translation>传输类型</translation>
    </message>
    <message>
        <source>Path MTU</source>
        <translation>路径 MTU</translation>
    </message>
    <message>
        <source>A&apos;s region (bytes)</source>
        <translation>A 的内存区域（字节）</translation>
    </message>
    <message>
        <source>B&apos;s region (bytes)</source>
        <translation>B 的内存区域（字节）</translation>
    </message>
    <message>
        <source>%1&apos;s access flags</source>
        <translation>%1 的访问标志</translation>
    </message>
    <message>
        <source>Build the pair</source>
        <translation>建立这一对</translation>
    </message>
    <message>
        <source>Opens the device; for A and B a PD, a region, a CQ and a QP; connects the QPs (RESET → INIT → RTR → RTS). An existing pair is torn down first.</source>
        <translation>打开设备；为 A 和 B 各创建一个 PD、一个内存区域、一个 CQ 和一个 QP；连接两个 QP（RESET → INIT → RTR → RTS）。已有的一对会先被拆除。</translation>
    </message>
    <message>
        <source>A → B</source>
        <translation>A → B</translation>
    </message>
    <message>
        <source>B → A</source>
        <translation>B → A</translation>
    </message>
    <message>
        <source>The scatter/gather list in the sender&apos;s region: OFFSET[:LENGTH], comma separated (no length: to the region&apos;s end; empty: no SGE)</source>
        <translation>发送方内存区域中的散布/聚集列表：OFFSET[:LENGTH]，以逗号分隔（不写长度：到区域末尾；留空：没有 SGE）</translation>
    </message>
    <message>
        <source>use this rkey instead of the peer&apos;s</source>
        <translation>使用这个 rkey 代替对端的 rkey</translation>
    </message>
    <message>
        <source>signaled</source>
        <translation>signaled（产生完成项）</translation>
    </message>
    <message>
        <source>inline</source>
        <translation>inline（内联）</translation>
    </message>
    <message>
        <source>Direction</source>
        <translation>方向</translation>
    </message>
    <message>
        <source>Opcode</source>
        <translation>操作码</translation>
    </message>
    <message>
        <source>SGE list</source>
        <translation>SGE 列表</translation>
    </message>
    <message>
        <source>Remote offset</source>
        <translation>远端偏移</translation>
    </message>
    <message>
        <source>rkey</source>
        <translation>rkey</translation>
    </message>
    <message>
        <source>Immediate</source>
        <translation>立即数</translation>
    </message>
    <message>
        <source>Compare / swap</source>
        <translation>比较 / 交换</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>加数</translation>
    </message>
    <message>
        <source>Flags</source>
        <translation>标志</translation>
    </message>
    <message>
        <source>wr_id</source>
        <translation>wr_id</translation>
    </message>
    <message>
        <source>Post send</source>
        <translation>投递发送</translation>
    </message>
    <message>
        <source>A</source>
        <translation>A</translation>
    </message>
    <message>
        <source>B</source>
        <translation>B</translation>
    </message>
    <message>
        <source>Post receive</source>
        <translation>投递接收</translation>
    </message>
    <message>
        <source>Completions to wait for (3 s at most); 0 watches the CQ stay empty</source>
        <translation>要等待的完成项数（最多 3 秒）；0 表示观察 CQ 保持为空</translation>
    </message>
    <message>
        <source>Poll CQ</source>
        <translation>轮询 CQ</translation>
    </message>
    <message>
        <source>Receive on</source>
        <translation>接收端</translation>
    </message>
    <message>
        <source>Receive length</source>
        <translation>接收长度</translation>
    </message>
    <message>
        <source>Poll the CQ of</source>
        <translation>轮询谁的 CQ</translation>
    </message>
    <message>
        <source>Completions</source>
        <translation>完成项</translation>
    </message>
    <message>
        <source>Move the QP</source>
        <translation>迁移 QP</translation>
    </message>
    <message>
        <source>QP of</source>
        <translation>QP 属于</translation>
    </message>
    <message>
        <source>To state</source>
        <translation>目标状态</translation>
    </message>
    <message>
        <source>1 · The pair</source>
        <translation>1 · 一对 QP</translation>
    </message>
    <message>
        <source>2 · Work request (ibv_post_send)</source>
        <translation>2 · 工作请求 (ibv_post_send)</translation>
    </message>
    <message>
        <source>3 · Receive and poll</source>
        <translation>3 · 接收与轮询</translation>
    </message>
    <message>
        <source>4 · QP state (ibv_modify_qp)</source>
        <translation>4 · QP 状态 (ibv_modify_qp)</translation>
    </message>
    <message>
        <source>SGE list: “%1” is not OFFSET[:LENGTH]</source>
        <translation>SGE 列表：“%1”不是 OFFSET[:LENGTH]</translation>
    </message>
    <message>
        <source>rkey: “%1” is not a 32-bit number</source>
        <translation>rkey：“%1”不是 32 位数字</translation>
    </message>
    <message>
        <source>%1: “%2” is not a number</source>
        <translation>%1：“%2”不是数字</translation>
    </message>
</context>
<context>
    <name>rdmalab::app::WorkbenchSession</name>
    <message>
        <source>The engine process is not running: use Engine &gt; Restart engine.</source>
        <translation>引擎进程没有运行：请使用“引擎 &gt; 重启引擎”。</translation>
    </message>
    <message>
        <source>The engine&apos;s answer to %1 is malformed: %2</source>
        <translation>引擎对 %1 的应答格式错误：%2</translation>
    </message>
    <message>
        <source>%1: expected %2, observed %3</source>
        <translation>%1：预期 %2，观察到 %3</translation>
    </message>
</context>
<context>
    <name>rdmalab::app::WorkbenchWindow</name>
    <message>
        <source>rdmalab — Workbench</source>
        <translation>rdmalab — 工作台</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <source>Saved the session as the lab %1 (rdmalab-cli lab run %1 replays it).</source>
        <translation>已将本次会话保存为实验 %1（rdmalab-cli lab run %1 可重放它）。</translation>
    </message>
    <message>
        <source>Reset all</source>
        <translation>全部重置</translation>
    </message>
    <message>
        <source>Destroys every object (QPs, CQs, regions, PDs, device), children first</source>
        <translation>销毁所有对象（QP、CQ、内存区域、PD、设备），先销毁子对象</translation>
    </message>
    <message>
        <source>Save as lab…</source>
        <translation>另存为实验…</translation>
    </message>
    <message>
        <source>Writes the steps done since the last reset as a lab file; its expectations are what the device did</source>
        <translation>把上次重置以来完成的步骤写成一个实验文件；其中的预期就是设备实际的表现</translation>
    </message>
    <message>
        <source>My workbench lab</source>
        <translation>我的工作台实验</translation>
    </message>
    <message>
        <source>Lab title</source>
        <translation>实验标题</translation>
    </message>
    <message>
        <source>Starting the engine…</source>
        <translation>正在启动引擎…</translation>
    </message>
    <message>
        <source>Save the session as a lab</source>
        <translation>将本次会话保存为实验</translation>
    </message>
    <message>
        <source>Lab files (*.yaml)</source>
        <translation>实验文件 (*.yaml)</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Refused before it reached the device&lt;/b&gt; (the step is not valid here):&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;在到达设备之前就被拒绝&lt;/b&gt;（该步骤在这里无效）：&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;The verb failed&lt;/b&gt;:&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;verb 调用失败&lt;/b&gt;：&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Results:&lt;/b&gt; %1&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;结果：&lt;/b&gt;%1&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;The verbs calls, as C:&lt;/b&gt;&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;这些 verbs 调用，写成 C 代码：&lt;/b&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Build the pair to start.</source>
        <translation>请先建立这一对。</translation>
    </message>
    <message>
        <source>After the last step (ibv_query_qp, the regions&apos; first bytes): %1</source>
        <translation>最后一步之后（ibv_query_qp，各内存区域的前几个字节）：%1</translation>
    </message>
    <message>
        <source>%1 (SoftRoCE: software, in the kernel)</source>
        <translation>%1（SoftRoCE：软件实现，在内核中）</translation>
    </message>
    <message>
        <source>Working on the device…</source>
        <translation>正在设备上执行…</translation>
    </message>
    <message>
        <source>Workbench ready: build the pair.</source>
        <translation>工作台就绪：请建立这一对。</translation>
    </message>
    <message numerus="yes">
        <source>%1 · %n step(s) since the last reset</source>
        <translation>
            <numerusform>%1 · 上次重置以来 %n 个步骤</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>Checking…</source>
        <translation>正在检查…</translation>
    </message>
    <message>
        <source>&lt;b style=&apos;color:#1b6e20&apos;&gt;✓ Fixed.&lt;/b&gt; Every check held (%1).</source>
        <translation>&lt;b style=&apos;color:#1b6e20&apos;&gt;✓ 已修复。&lt;/b&gt;每项检查都成立（%1 项）。</translation>
    </message>
    <message>
        <source>&lt;b style=&apos;color:#b00020&apos;&gt;✗ Not yet.&lt;/b&gt; %1 of the lab&apos;s %2 check steps ran; what did not hold:</source>
        <translation>&lt;b style=&apos;color:#b00020&apos;&gt;✗ 还没有修好。&lt;/b&gt;实验的 %2 个检查步骤中运行了 %1 个；未成立的项：</translation>
    </message>
    <message>
        <source>Troubleshooting: %1</source>
        <translation>排错：%1</translation>
    </message>
    <message>
        <source>Troubleshooting</source>
        <translation>排错</translation>
    </message>
    <message>
        <source>This troubleshooting lab did not load: %1</source>
        <translation>这个排错实验无法加载：%1</translation>
    </message>
    <message>
        <source>Check my fix</source>
        <translation>检查我的修复</translation>
    </message>
    <message>
        <source>Runs the lab&apos;s checks on the objects as they are now: they judge the result, not the path to it</source>
        <translation>在对象的当前状态上运行实验的检查：检查的是结果，而不是达到结果的途径</translation>
    </message>
    <message>
        <source>Set up again</source>
        <translation>重新搭建</translation>
    </message>
    <message>
        <source>Tears everything down and builds the lab&apos;s broken set-up again</source>
        <translation>销毁所有对象，重新搭建本实验有问题的环境</translation>
    </message>
    <message>
        <source>Apply the lab&apos;s fix</source>
        <translation>应用实验自带的修复</translation>
    </message>
    <message>
        <source>Performs the lab&apos;s own fix on the device, one real call per step, each drawn with its explanation (for a demonstration; then Check my fix)</source>
        <translation>在设备上执行实验自带的修复，每一步都是一次真实调用，并配以说明画出（用于演示；之后再按“检查我的修复”）</translation>
    </message>
    <message>
        <source>Autosave failed: %1. This session is kept in memory only: save it as a lab before you close the window.</source>
        <translation>自动保存失败：%1。这个会话只保存在内存中：关闭窗口前请把它另存为实验。</translation>
    </message>
</context>
</TS>
