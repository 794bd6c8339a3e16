<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>AboutDialog</name>
    <message>
        <source>Whisper speech recognition</source>
        <translation>Whisper 语音识别</translation>
    </message>
    <message>
        <source>PyAV authors, FFmpeg developers</source>
        <translation>PyAV 作者、FFmpeg 开发者</translation>
    </message>
    <message>
        <source>PyTorch contributors</source>
        <translation>PyTorch 贡献者</translation>
    </message>
    <message>
        <source>About {app}</source>
        <translation>关于 {app}</translation>
    </message>
    <message>
        <source>Turns recordings and videos into transcripts and subtitles, speaks text aloud and clones voices with consent, in Chinese, English and many other languages, on the GPU or the CPU.</source>
        <translation>把录音和视频转写成文字稿和字幕，把文字朗读出来，并在本人同意后克隆声音；支持中文、英文等多种语言，可在 GPU 或 CPU 上运行。</translation>
    </message>
    <message>
        <source>Built with:</source>
        <translation>使用的开源项目：</translation>
    </message>
    <message>
        <source>Models and logs are kept in:</source>
        <translation>模型和日志保存在：</translation>
    </message>
</context>
<context>
    <name>AddVoicePage</name>
    <message>
        <source>e.g. Reception announcements</source>
        <translation>例如：前台广播</translation>
    </message>
    <message>
        <source>The full name of the person who speaks</source>
        <translation>说话人的全名</translation>
    </message>
    <message>
        <source>Name of the voice:</source>
        <translation>声音名称：</translation>
    </message>
    <message>
        <source>Speaker&apos;s name:</source>
        <translation>说话人姓名：</translation>
    </message>
    <message>
        <source>Language:</source>
        <translation>语言：</translation>
    </message>
    <message>
        <source>Import recording…</source>
        <translation>导入录音…</translation>
    </message>
    <message>
        <source>Use an existing recording (any audio or video file) instead.</source>
        <translation>改用已有的录音（任意音频或视频文件）。</translation>
    </message>
    <message>
        <source>Play back</source>
        <translation>回放</translation>
    </message>
    <message>
        <source>Back to the sample</source>
        <translation>返回样本</translation>
    </message>
    <message>
        <source>Next: consent sentence</source>
        <translation>下一步：授权声明</translation>
    </message>
    <message>
        <source>To go on, record the text above or import a recording.</source>
        <translation>要继续，请朗读并录下上面的文字，或导入一段录音。</translation>
    </message>
    <message>
        <source>To go on, record the text again (see why below).</source>
        <translation>要继续，请重新录下这段文字（原因见下方）。</translation>
    </message>
    <message>
        <source>To go on, type the speaker&apos;s name at the top.</source>
        <translation>要继续，请在上方填写说话人姓名。</translation>
    </message>
    <message>
        <source>To save, record the sentence above or import a recording of it.</source>
        <translation>要保存，请录下上面这句话，或导入这句话的录音。</translation>
    </message>
    <message>
        <source>To save, type a name for the voice at the top.</source>
        <translation>要保存，请在上方填写声音名称。</translation>
    </message>
    <message>
        <source>The speaker reads a sentence that says they agree.</source>
        <translation>由说话人朗读一句表示同意的声明。</translation>
    </message>
    <message>
        <source>Check consent and save the voice</source>
        <translation>核对授权并保存声音</translation>
    </message>
    <message>
        <source>Choose a recording</source>
        <translation>选择录音</translation>
    </message>
    <message>
        <source>Audio and video files (*.*)</source>
        <translation>音频和视频文件 (*.*)</translation>
    </message>
    <message>
        <source>Reading “{name}”…</source>
        <translation>正在读取“{name}”…</translation>
    </message>
    <message>
        <source>VoxDesk needs the Whisper “{name}” model to check the consent recording. Download it in the Transcribe tab, then try again.</source>
        <translation>核对授权录音需要 Whisper“{name}”模型。请在“转写”页中下载后重试。</translation>
    </message>
    <message>
        <source>Checking the consent recording…</source>
        <translation>正在核对授权录音…</translation>
    </message>
    <message>
        <source>Saved the voice “{name}”. You can now use it on the Speak page.</source>
        <translation>已保存声音“{name}”。现在可以在“朗读”页中使用它了。</translation>
    </message>
</context>
<context>
    <name>Audio</name>
    <message>
        <source>“{name}” is longer than {minutes:g} minutes, the most VoxDesk takes here.</source>
        <translation>“{name}”超过 {minutes:g} 分钟，这是此处 VoxDesk 能接受的最大长度。</translation>
    </message>
    <message>
        <source>VoxDesk cannot find the file “{name}”. It may have been moved, renamed or deleted.</source>
        <translation>VoxDesk 找不到文件“{name}”，它可能已被移动、改名或删除。</translation>
    </message>
    <message>
        <source>“{name}” is a folder, not a recording. Open the audio or video files inside it.</source>
        <translation>“{name}”是文件夹，不是录音。请打开其中的音频或视频文件。</translation>
    </message>
    <message>
        <source>The file “{name}” is empty (0 bytes), so there is nothing to transcribe.</source>
        <translation>文件“{name}”是空的（0 字节），没有可转写的内容。</translation>
    </message>
    <message>
        <source>VoxDesk cannot read “{name}” as audio or video. It may not be a recording, or it may be damaged.</source>
        <translation>VoxDesk 无法把“{name}”当作音频或视频读取。它可能不是录音文件，或者已经损坏。</translation>
    </message>
    <message>
        <source>The sound in “{name}” is in a format VoxDesk cannot play. Save it as MP3 or WAV with another program, then try again.</source>
        <translation>“{name}”中的声音格式 VoxDesk 无法播放。请用其他软件另存为 MP3 或 WAV 后重试。</translation>
    </message>
    <message>
        <source>“{name}” has no sound track, so there is nothing to transcribe.</source>
        <translation>“{name}”没有音轨，没有可转写的内容。</translation>
    </message>
    <message>
        <source>The sound in “{name}” cannot be decoded; the file may be damaged or incomplete.</source>
        <translation>“{name}”中的声音无法解码，文件可能已损坏或不完整。</translation>
    </message>
    <message>
        <source>VoxDesk is not allowed to read “{name}”. Ask the file&apos;s owner for read permission, or copy the file to your own folder.</source>
        <translation>VoxDesk 没有读取“{name}”的权限。请向文件所有者申请读取权限，或把文件复制到您自己的文件夹。</translation>
    </message>
    <message>
        <source>VoxDesk could not read “{name}”. If it is on a USB stick or a network drive, check that it is still connected, then try again.</source>
        <translation>VoxDesk 无法读取“{name}”。如果文件在 U 盘或网络驱动器上，请确认仍已连接，然后重试。</translation>
    </message>
</context>
<context>
    <name>Autosave</name>
    <message>
        <source>VoxDesk could not read the work it saved in {path}.</source>
        <translation>VoxDesk 无法读取保存在 {path} 中的工作。</translation>
    </message>
    <message>
        <source>The disk is full, so your latest change could not be saved as you go. Free some space, or export the transcript to keep it.</source>
        <translation>磁盘已满，您最近的修改未能自动保存。请释放一些空间，或导出文字稿以保留它。</translation>
    </message>
    <message>
        <source>Another VoxDesk window kept the saved work busy, so your latest change could not be saved as you go. Try again in a moment.</source>
        <translation>另一个 VoxDesk 窗口正在占用已保存的工作，您最近的修改未能自动保存。请稍后再试。</translation>
    </message>
    <message>
        <source>VoxDesk could not save your latest change as you go, because the file {path} cannot be written (it is read-only, or not a file). Export the transcript to keep it.</source>
        <translation>VoxDesk 无法随时保存您最新的修改，因为无法写入文件 {path}（它是只读的，或者不是文件）。请导出转录文本以保留它。</translation>
    </message>
    <message>
        <source>VoxDesk could not save your latest change as you go in {folder}. Export the transcript to keep it.</source>
        <translation>VoxDesk 未能在 {folder} 中自动保存您最近的修改。请导出文字稿以保留它。</translation>
    </message>
    <message>
        <source>The work VoxDesk saved earlier could not be read, so it starts afresh. The old file was kept as {path}.</source>
        <translation>无法读取 VoxDesk 之前保存的工作，因此重新开始。旧文件已保留为 {path}。</translation>
    </message>
    <message>
        <source>VoxDesk cannot save your work as you go, because the file {path} cannot be written (it is read-only, or not a file). Export your transcripts to keep them; to save as you go again, make that file writable or move it away.</source>
        <translation>VoxDesk 无法随时保存您的工作，因为无法写入文件 {path}（它是只读的，或者不是文件）。请导出转录文本以保留它们；要重新随时保存，请让该文件可写，或把它移走。</translation>
    </message>
    <message>
        <source>VoxDesk cannot save your work as you go, because it cannot write to {folder}. Export your transcripts to keep them.</source>
        <translation>VoxDesk 无法写入 {folder}，因此不能自动保存您的工作。请导出文字稿以保留它们。</translation>
    </message>
</context>
<context>
    <name>CloneEngine</name>
    <message>
        <source>commercial use allowed</source>
        <translation>允许商业使用</translation>
    </message>
    <message>
        <source>non-commercial use only</source>
        <translation>仅限非商业用途</translation>
    </message>
    <message>
        <source>Licence: {licence} ({use})</source>
        <translation>许可协议：{licence}（{use}）</translation>
    </message>
    <message>
        <source>XTTS v2 (clones from the sample)</source>
        <translation>XTTS v2（直接按样本克隆）</translation>
    </message>
    <message>
        <source>Speaks 17 languages, Chinese and English included, in the voice of the sample. Slow on the CPU.</source>
        <translation>用样本的声音说 17 种语言（包括中文和英文）。在 CPU 上较慢。</translation>
    </message>
    <message>
        <source>OpenVoice v2 (converts a synthetic voice)</source>
        <translation>OpenVoice v2（转换合成语音）</translation>
    </message>
    <message>
        <source>A Coqui voice reads the text and OpenVoice gives it the tone of the sample. Free for commercial use.</source>
        <translation>先由 Coqui 语音朗读文字，再由 OpenVoice 转换成样本的音色。可免费用于商业用途。</translation>
    </message>
    <message>
        <source>not measured</source>
        <translation>未测量</translation>
    </message>
    <message>
        <source>very close to the sample</source>
        <translation>与样本非常接近</translation>
    </message>
    <message>
        <source>close to the sample</source>
        <translation>与样本接近</translation>
    </message>
    <message>
        <source>not much like the sample</source>
        <translation>与样本不太像</translation>
    </message>
    <message>
        <source>The licence of XTTS v2 (CPML, non-commercial use only) has not been accepted yet. Accept it in the Clone tab, or choose OpenVoice v2.</source>
        <translation>尚未接受 XTTS v2 的许可协议（CPML，仅限非商业用途）。请在“声音克隆”页中接受，或改用 OpenVoice v2。</translation>
    </message>
    <message>
        <source>Speaking sentence {number} of {count}…</source>
        <translation>正在朗读第 {number} 句，共 {count} 句…</translation>
    </message>
    <message>
        <source>Measuring how close the voice is to the sample…</source>
        <translation>正在测量声音与样本的相似度…</translation>
    </message>
    <message>
        <source>The text contains Chinese characters, but the language is set to {language}. Choose Chinese as the language, then try again.</source>
        <translation>文字中含有汉字，但语言设为了{language}。请把语言改为中文后重试。</translation>
    </message>
    <message>
        <source>The voice match could not be measured: the result has too little speech in it.</source>
        <translation>无法测量声音相似度：生成的语音太短。</translation>
    </message>
    <message>
        <source>The voice match could not be measured this time. The speech itself is complete.</source>
        <translation>这次无法测量声音相似度，但语音本身已完整生成。</translation>
    </message>
    <message>
        <source>There is no XTTS model at “{model}”. Choose the XTTS v2 model folder.</source>
        <translation>“{model}”中没有 XTTS 模型。请选择 XTTS v2 的模型文件夹。</translation>
    </message>
    <message>
        <source>The XTTS v2 model is not on this computer yet. If you have its folder, choose it with “Model folder…” next to the engine. Otherwise, on the Synthesize tab, choose “XTTS v2, 17 languages” in the model list and press Speak once: it is downloaded then (about 1.9 GB). Then try again here.</source>
        <translation>这台电脑上还没有 XTTS v2 模型。如果您有它的文件夹，请用引擎旁边的“模型文件夹…”选择它。否则请在“语音合成”标签页的模型列表中选择“XTTS v2，17 种语言”，然后按一次“朗读”：模型会在那时下载（约 1.9 GB）。之后再回到这里重试。</translation>
    </message>
    <message>
        <source>Loading XTTS v2…</source>
        <translation>正在加载 XTTS v2…</translation>
    </message>
    <message>
        <source>The XTTS v2 model folder is incomplete. Download or import it again.</source>
        <translation>XTTS v2 模型文件夹不完整。请重新下载或导入。</translation>
    </message>
    <message>
        <source>The XTTS v2 model could not be loaded: its files are damaged or do not belong together. Download or import it again.</source>
        <translation>无法加载 XTTS v2 模型：文件已损坏或彼此不匹配。请重新下载或导入。</translation>
    </message>
    <message>
        <source>XTTS v2 does not speak {language}. Choose one of its languages, such as English or Chinese.</source>
        <translation>XTTS v2 不会说{language}。请选择它支持的语言，例如英文或中文。</translation>
    </message>
    <message>
        <source>Preparing the voice…</source>
        <translation>正在准备声音…</translation>
    </message>
    <message>
        <source>XTTS v2 needs a text tool for {language} that is not installed (pypinyin for Chinese). Run the installer again (make setup), then try again.</source>
        <translation>XTTS v2 需要的{language}文本工具尚未安装（中文需要 pypinyin）。请重新运行安装程序（make setup）后重试。</translation>
    </message>
    <message>
        <source>XTTS v2 could not say the sentence “{short}”. Split it into shorter sentences or remove unusual symbols, then try again.</source>
        <translation>XTTS v2 无法朗读句子“{short}”。请拆成更短的句子或删除特殊符号后重试。</translation>
    </message>
    <message>
        <source>OpenVoice v2 needs its converter folder: the folder from the OpenVoice v2 download that makes the speech sound like the saved voice (it holds config.json and checkpoint.pth). Press “Model folder…” next to “Voice model”, choose that folder, then try again.</source>
        <translation>OpenVoice v2 需要它的转换器文件夹：即 OpenVoice v2 下载内容中让语音听起来像已保存声音的那个文件夹（其中有 config.json 和 checkpoint.pth）。请按“语音模型”旁的“模型文件夹…”，选择该文件夹后重试。</translation>
    </message>
    <message>
        <source>Loading OpenVoice v2…</source>
        <translation>正在加载 OpenVoice v2…</translation>
    </message>
    <message>
        <source>The OpenVoice v2 converter folder is incomplete or damaged. Copy it again.</source>
        <translation>OpenVoice v2 转换器文件夹不完整或已损坏。请重新复制。</translation>
    </message>
    <message>
        <source>The OpenVoice v2 converter could not be loaded: its files do not belong together. Copy the folder again.</source>
        <translation>无法加载 OpenVoice v2 转换器：文件彼此不匹配。请重新复制该文件夹。</translation>
    </message>
    <message>
        <source>Loading the base voice…</source>
        <translation>正在加载基础语音…</translation>
    </message>
    <message>
        <source>OpenVoice v2 could not convert the sentence “{short}”. Try a longer sentence.</source>
        <translation>OpenVoice v2 无法转换句子“{short}”。请换一个更长的句子试试。</translation>
    </message>
    <message>
        <source>Listening to the consent recording…</source>
        <translation>正在识别授权录音…</translation>
    </message>
    <message>
        <source>Comparing the voices…</source>
        <translation>正在比对声音…</translation>
    </message>
    <message>
        <source>Checking that the recordings are a person&apos;s own voice…</source>
        <translation>正在检查录音是否为本人的声音…</translation>
    </message>
    <message>
        <source>the recordings</source>
        <translation>录音</translation>
    </message>
    <message>
        <source>Saving the voice…</source>
        <translation>正在保存声音…</translation>
    </message>
</context>
<context>
    <name>CloneTab</name>
    <message>
        <source>Speak</source>
        <translation>朗读</translation>
    </message>
    <message>
        <source>Add a voice</source>
        <translation>添加声音</translation>
    </message>
</context>
<context>
    <name>Connection</name>
    <message>
        <source>The server at {host} answers without encryption: its address must start with http:// instead of https://.</source>
        <translation>{host} 上的服务器使用未加密的连接：它的地址必须以 http:// 开头，而不是 https://。</translation>
    </message>
    <message>
        <source>The server at {host} expects an encrypted connection: its address must start with https:// instead of http://.</source>
        <translation>{host} 上的服务器需要加密连接：它的地址必须以 https:// 开头，而不是 http://。</translation>
    </message>
    <message>
        <source>The server at {host} sends VoxDesk round in a loop of redirects, so nothing can be fetched from it.</source>
        <translation>{host} 上的服务器让 VoxDesk 在重定向中兜圈子，因此无法从它获取任何内容。</translation>
    </message>
</context>
<context>
    <name>Consent</name>
    <message>
        <source>Type the name of the person whose voice this is.</source>
        <translation>请输入这个声音所属之人的姓名。</translation>
    </message>
    <message>
        <source>The consent sentence can be read in English or Chinese. Choose one of them.</source>
        <translation>授权声明可以用英文或中文朗读，请选择其一。</translation>
    </message>
    <message>
        <source>No words could be heard in the consent recording. Read the sentence aloud clearly, close to the microphone, then record it again.</source>
        <translation>授权录音中听不到任何话语。请靠近麦克风清楚地朗读这句话，然后重新录制。</translation>
    </message>
    <message>
        <source>The consent recording does not match the sentence on screen. Read the whole sentence as it is written, then record it again.</source>
        <translation>授权录音与屏幕上的声明不符。请按原文完整朗读整句话，然后重新录制。</translation>
    </message>
    <message>
        <source>The code in the consent recording is not {code}. Read the code shown on screen digit by digit, then record the sentence again.</source>
        <translation>授权录音中的验证码不是 {code}。请逐位读出屏幕上的验证码，然后重新录制这句话。</translation>
    </message>
    <message>
        <source>{reason} VoxDesk heard: “{heard}”</source>
        <translation>{reason} VoxDesk 听到的是：“{heard}”</translation>
    </message>
    <message>
        <source>The consent record of this voice is damaged, so the voice cannot be used. Delete the voice and add it again with a new consent recording.</source>
        <translation>这个声音的授权记录已损坏，无法使用。请删除该声音，再用新的授权录音重新添加。</translation>
    </message>
    <message>
        <source>The voice “{voice_name}” has no valid consent record, so VoxDesk will not use it. Add the voice again with a consent recording by the person it belongs to.</source>
        <translation>声音“{voice_name}”没有有效的授权记录，VoxDesk 不会使用它。请由声音本人录制授权录音后重新添加。</translation>
    </message>
    <message>
        <source>A recording of the voice “{voice_name}” is missing or cannot be read, so the voice cannot be used. Add the voice again.</source>
        <translation>声音“{voice_name}”的一段录音丢失或无法读取，无法使用该声音。请重新添加。</translation>
    </message>
    <message>
        <source>The consent recording carries VoxDesk&apos;s own watermark: it was made by speech synthesis, not spoken by a person, so it cannot give consent. The person whose voice this is must read the sentence aloud themselves.</source>
        <translation>授权录音带有 VoxDesk 自己的水印：它是语音合成生成的，不是真人说的，因此不能作为授权。请声音的主人亲自朗读这句话。</translation>
    </message>
    <message>
        <source>The voice sample carries VoxDesk&apos;s own watermark: it is synthesized speech, not a person&apos;s voice. Record or import a recording of the person themselves.</source>
        <translation>声音样本带有 VoxDesk 自己的水印：它是合成语音，不是真人的声音。请录制或导入本人的录音。</translation>
    </message>
    <message>
        <source>The consent recording was not accepted.</source>
        <translation>授权录音未通过。</translation>
    </message>
    <message>
        <source>The consent recording and the voice sample do not sound like the same person. The person whose voice is used must read the consent sentence themselves.</source>
        <translation>授权录音和声音样本听起来不是同一个人。必须由声音本人亲自朗读授权声明。</translation>
    </message>
    <message>
        <source>VoxDesk&apos;s consent key is damaged, so no saved voice can be used. Delete the voices and add them again with new consent recordings.</source>
        <translation>VoxDesk 的授权密钥已损坏，已保存的声音都无法使用。请删除这些声音，并用新的授权录音重新添加。</translation>
    </message>
    <message>
        <source>VoxDesk cannot read or create its consent key in {folder}. Check that the folder is yours and writable, then try again.</source>
        <translation>VoxDesk 无法在 {folder} 中读取或创建授权密钥。请确认该文件夹属于您且可写，然后重试。</translation>
    </message>
</context>
<context>
    <name>ConsentStep</name>
    <message>
        <source>Step 2 of 2: consent. {name} reads this sentence aloud, including the code.</source>
        <translation>第 2 步（共 2 步）：授权。请{name}朗读下面这句话，包括验证码。</translation>
    </message>
    <message>
        <source>Consent sentence:</source>
        <translation>授权声明：</translation>
    </message>
    <message>
        <source>Consent recording: {seconds:.0f} seconds. Press “Check consent and save the voice”.</source>
        <translation>授权录音：{seconds:.0f} 秒。请按“核对授权并保存声音”。</translation>
    </message>
</context>
<context>
    <name>Cue checks</name>
    <message>
        <source>Ends before it starts.</source>
        <translation>结束时间早于开始时间。</translation>
    </message>
    <message>
        <source>{speed} characters a second: more than a reader manages ({allowed}).</source>
        <translation>每秒 {speed} 个字：超过观众能读的速度（{allowed}）。</translation>
    </message>
    <message>
        <source>On screen {seconds} s: shorter than {minimum} s.</source>
        <translation>显示 {seconds} 秒：短于 {minimum} 秒。</translation>
    </message>
    <message>
        <source>On screen {seconds} s: longer than {maximum} s.</source>
        <translation>显示 {seconds} 秒：长于 {maximum} 秒。</translation>
    </message>
    <message>
        <source>Overlaps the next subtitle by {seconds} s.</source>
        <translation>与下一条字幕重叠 {seconds} 秒。</translation>
    </message>
</context>
<context>
    <name>DecodingBox</name>
    <message>
        <source>Decoding</source>
        <translation>解码</translation>
    </message>
    <message>
        <source>More decoding options</source>
        <translation>更多解码选项</translation>
    </message>
    <message>
        <source>Right as they are for nearly every recording.</source>
        <translation>对几乎所有录音，保持原样即可。</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>自动</translation>
    </message>
</context>
<context>
    <name>Device</name>
    <message>
        <source>passed: {steps}</source>
        <translation>通过：{steps}</translation>
    </message>
    <message>
        <source>did not finish within {seconds:g} s (stuck during {step})</source>
        <translation>{seconds:g} 秒内未完成（卡在 {step}）</translation>
    </message>
    <message>
        <source>did not finish within {seconds:g} s (stuck before the first step)</source>
        <translation>{seconds:g} 秒内未完成（在第一步之前卡住）</translation>
    </message>
    <message>
        <source>crashed with {signal} during {step}</source>
        <translation>在 {step} 时崩溃（{signal}）</translation>
    </message>
    <message>
        <source>crashed with {signal} before the first step</source>
        <translation>在第一步之前崩溃（{signal}）</translation>
    </message>
    <message>
        <source>found no GPU ({error})</source>
        <translation>未找到 GPU（{error}）</translation>
    </message>
    <message>
        <source>{step} failed: {error}</source>
        <translation>{step} 失败：{error}</translation>
    </message>
    <message>
        <source>could not run: {error}</source>
        <translation>无法运行：{error}</translation>
    </message>
    <message>
        <source>running on CPU ({cores} cores)</source>
        <translation>在 CPU 上运行（{cores} 核）</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>GPU: {name}</source>
        <translation>GPU：{name}</translation>
    </message>
    <message>
        <source>GPU: {name} · {facts}</source>
        <translation>GPU：{name} · {facts}</translation>
    </message>
    <message>
        <source>{line} (not tested yet)</source>
        <translation>{line}（尚未测试）</translation>
    </message>
    <message>
        <source>GPU {name} failed its test — {cpu}</source>
        <translation>GPU {name} 未通过测试 — {cpu}</translation>
    </message>
    <message>
        <source>The GPU failed its test — {cpu}</source>
        <translation>GPU 未通过测试 — {cpu}</translation>
    </message>
    <message>
        <source>AMD GPU not used: PyTorch has no ROCm support — {cpu}</source>
        <translation>未使用 AMD 显卡：PyTorch 不支持 ROCm — {cpu}</translation>
    </message>
    <message>
        <source>AMD GPU not usable — {cpu}</source>
        <translation>AMD 显卡无法使用 — {cpu}</translation>
    </message>
    <message>
        <source>No GPU — {cpu}</source>
        <translation>没有 GPU — {cpu}</translation>
    </message>
    <message>
        <source>ROCm build</source>
        <translation>ROCm 版</translation>
    </message>
    <message>
        <source>CUDA build</source>
        <translation>CUDA 版</translation>
    </message>
    <message>
        <source>CPU-only build</source>
        <translation>纯 CPU 版</translation>
    </message>
    <message>
        <source>PyTorch: not installed ({error})</source>
        <translation>PyTorch：未安装（{error}）</translation>
    </message>
    <message>
        <source>PyTorch: not installed</source>
        <translation>PyTorch：未安装</translation>
    </message>
    <message>
        <source>PyTorch{version} ({build}{extra})</source>
        <translation>PyTorch{version}（{build}{extra}）</translation>
    </message>
    <message>
        <source>{gpu}, {total:.1f} GB ({free:.1f} GB free)</source>
        <translation>{gpu}，{total:.1f} GB（可用 {free:.1f} GB）</translation>
    </message>
    <message>
        <source>{gpu}, {total:.1f} GB</source>
        <translation>{gpu}，{total:.1f} GB</translation>
    </message>
    <message>
        <source>this GPU</source>
        <translation>这块 GPU</translation>
    </message>
    <message>
        <source>PyTorch has code for {target}: yes</source>
        <translation>PyTorch 是否支持 {target}：是</translation>
    </message>
    <message>
        <source>PyTorch has code for {target}: no</source>
        <translation>PyTorch 是否支持 {target}：否</translation>
    </message>
    <message>
        <source>AMD GPU found ({count}), not usable by this PyTorch</source>
        <translation>找到 AMD 显卡（{count} 块），但当前 PyTorch 无法使用</translation>
    </message>
    <message>
        <source>GPU: none found</source>
        <translation>GPU：未找到</translation>
    </message>
    <message>
        <source>ROCm release: {release}</source>
        <translation>ROCm 版本：{release}</translation>
    </message>
    <message>
        <source>GPU test: {result}</source>
        <translation>GPU 测试：{result}</translation>
    </message>
    <message>
        <source>{ct2}: 1 GPU</source>
        <translation>{ct2}：1 块 GPU</translation>
    </message>
    <message>
        <source>{ct2}: {count} GPUs</source>
        <translation>{ct2}：{count} 块 GPU</translation>
    </message>
    <message>
        <source>{ct2} on the GPU: {types}</source>
        <translation>{ct2} 在 GPU 上：{types}</translation>
    </message>
    <message>
        <source>CPU: {name} ({cores} cores)</source>
        <translation>CPU：{name}（{cores} 核）</translation>
    </message>
</context>
<context>
    <name>DeviceProbe</name>
    <message>
        <source>Detecting the device…</source>
        <translation>正在检测设备…</translation>
    </message>
</context>
<context>
    <name>DeviceStatusWidget</name>
    <message>
        <source>Device unknown</source>
        <translation>设备未知</translation>
    </message>
    <message>
        <source>Detecting the device…</source>
        <translation>正在检测设备…</translation>
    </message>
    <message>
        <source>VoxDesk is finding out which GPU this computer has.</source>
        <translation>VoxDesk 正在检测这台电脑的 GPU。</translation>
    </message>
    <message>
        <source>Some work ran on the CPU because the GPU failed. Click for details.</source>
        <translation>由于 GPU 出错，部分任务改在 CPU 上运行。点击查看详情。</translation>
    </message>
    <message>
        <source>Transcription: one 30-second window at a time</source>
        <translation>转写：每次一段 30 秒的语音</translation>
    </message>
    <message>
        <source>Transcription: {count} 30-second windows at once</source>
        <translation>转写：每次同时 {count} 段 30 秒的语音</translation>
    </message>
    <message>
        <source>The processor&apos;s bfloat16 instructions encode the audio: faster on this computer</source>
        <translation>由处理器的 bfloat16 指令对音频编码：在这台电脑上更快</translation>
    </message>
    <message>
        <source>Speech synthesis: {device}</source>
        <translation>语音合成：{device}</translation>
    </message>
    <message>
        <source>Server: {server}</source>
        <translation>服务器：{server}</translation>
    </message>
    <message>
        <source>Files are transcribed on this server.</source>
        <translation>文件在此服务器上转写。</translation>
    </message>
    <message>
        <source>Files are transcribed on this server when this computer has no working GPU.</source>
        <translation>本机没有可用 GPU 时，文件在此服务器上转写。</translation>
    </message>
    <message>
        <source>⚠ 1 CPU fallback</source>
        <translation>⚠ 1 次改用 CPU</translation>
    </message>
    <message>
        <source>⚠ {count} CPU fallbacks</source>
        <translation>⚠ {count} 次改用 CPU</translation>
    </message>
    <message>
        <source>⚠ 1 server fallback</source>
        <translation>⚠ 1 次改在本机完成</translation>
    </message>
    <message>
        <source>⚠ {count} server fallbacks</source>
        <translation>⚠ {count} 次改在本机完成</translation>
    </message>
    <message>
        <source>The transcription server failed, so this computer finished the work. Click for details.</source>
        <translation>转录服务器出错，因此由这台电脑完成了这项工作。点击查看详情。</translation>
    </message>
    <message>
        <source>⚠ {count} fallbacks</source>
        <translation>⚠ {count} 次改用备用方式</translation>
    </message>
    <message>
        <source>Some work could not finish on the GPU or on the transcription server, so this computer finished it. Click for details.</source>
        <translation>有些工作无法在 GPU 或转录服务器上完成，因此由这台电脑完成。点击查看详情。</translation>
    </message>
</context>
<context>
    <name>Doctor</name>
    <message>
        <source>Python could not be started</source>
        <translation>无法启动 Python</translation>
    </message>
    <message>
        <source>no answer within {seconds:g} s</source>
        <translation>{seconds:g} 秒内没有响应</translation>
    </message>
    <message>
        <source>crashed with {signal}</source>
        <translation>崩溃（{signal}）</translation>
    </message>
    <message>
        <source>{command}   # then log out and back in (or restart the computer).</source>
        <translation>{command}   # 然后注销并重新登录（或重启电脑）。</translation>
    </message>
    <message>
        <source>a ROCm build</source>
        <translation>ROCm 版</translation>
    </message>
    <message>
        <source>a CUDA build</source>
        <translation>CUDA 版</translation>
    </message>
    <message>
        <source>a CPU-only build</source>
        <translation>纯 CPU 版</translation>
    </message>
    <message>
        <source>PyTorch build</source>
        <translation>PyTorch 版本</translation>
    </message>
    <message>
        <source>PyTorch is not installed or does not load ({error}).</source>
        <translation>PyTorch 未安装或无法加载（{error}）。</translation>
    </message>
    <message>
        <source>PyTorch is not installed or does not load.</source>
        <translation>PyTorch 未安装或无法加载。</translation>
    </message>
    <message>
        <source>This computer has an AMD graphics card, but PyTorch {version} is {build}, so it cannot use it. PyTorch for ROCm comes from PyTorch&apos;s own ROCm wheel index.</source>
        <translation>这台电脑有 AMD 显卡，但 PyTorch {version} 是{build}，无法使用这块显卡。ROCm 版 PyTorch 需从 PyTorch 官方的 ROCm 安装源获取。</translation>
    </message>
    <message>
        <source>{finding} {reason}</source>
        <translation>{finding}{reason}</translation>
    </message>
    <message>
        <source>PyTorch {version} is a ROCm build (HIP {hip}), right for the AMD graphics card.</source>
        <translation>PyTorch {version} 是 ROCm 版（HIP {hip}），适用于 AMD 显卡。</translation>
    </message>
    <message>
        <source>PyTorch {version} is a ROCm build, but no AMD graphics card was found, so it runs on the CPU.</source>
        <translation>PyTorch {version} 是 ROCm 版，但没有找到 AMD 显卡，因此在 CPU 上运行。</translation>
    </message>
    <message>
        <source>PyTorch {version} is {build} and sees {gpu}.</source>
        <translation>PyTorch {version} 是{build}，已识别 {gpu}。</translation>
    </message>
    <message>
        <source>a GPU</source>
        <translation>一块 GPU</translation>
    </message>
    <message>
        <source>No GPU found; PyTorch {version} is {build} and runs on the CPU.</source>
        <translation>未找到 GPU；PyTorch {version} 是{build}，在 CPU 上运行。</translation>
    </message>
    <message>
        <source>cannot open {paths}</source>
        <translation>无法打开 {paths}</translation>
    </message>
    <message>
        <source>finds no {pattern} device</source>
        <translation>找不到 {pattern} 设备</translation>
    </message>
    <message>
        <source>the {group} group</source>
        <translation>{group} 组</translation>
    </message>
    <message>
        <source>the {groups} and {last} groups</source>
        <translation>{groups} 和 {last} 组</translation>
    </message>
    <message>
        <source>Not applicable: no AMD graphics card found.</source>
        <translation>不适用：未找到 AMD 显卡。</translation>
    </message>
    <message>
        <source>GPU device access</source>
        <translation>GPU 设备权限</translation>
    </message>
    <message>
        <source>{path} does not exist: the amdgpu kernel driver with compute support is not loaded.</source>
        <translation>{path} 不存在：支持计算的 amdgpu 内核驱动未加载。</translation>
    </message>
    <message>
        <source>Even as root VoxDesk {problem}.</source>
        <translation>即使以 root 身份运行，VoxDesk 也{problem}。</translation>
    </message>
    <message>
        <source>The GPU&apos;s device files are accessible (running as root).</source>
        <translation>可以访问 GPU 的设备文件（以 root 身份运行）。</translation>
    </message>
    <message>
        <source>You were added to {groups}, but this login session started before that.</source>
        <translation>您已被加入 {groups}，但当前登录会话是在此之前开始的。</translation>
    </message>
    <message>
        <source>Log out and back in (or restart the computer), then start VoxDesk again.</source>
        <translation>请注销并重新登录（或重启电脑），然后重新启动 VoxDesk。</translation>
    </message>
    <message>
        <source>VoxDesk {problem}: your user is not allowed to use the GPU (not in {groups}).</source>
        <translation>VoxDesk {problem}：您的用户无权使用 GPU（不在 {groups}中）。</translation>
    </message>
    <message>
        <source>VoxDesk {problem}: your user is not allowed to use the GPU.</source>
        <translation>VoxDesk {problem}：您的用户无权使用 GPU。</translation>
    </message>
    <message>
        <source>The GPU&apos;s device files open now, but your user is not in {groups}, which ROCm expects.</source>
        <translation>GPU 的设备文件目前可以打开，但您的用户不在 {groups}中，而 ROCm 要求如此。</translation>
    </message>
    <message>
        <source>/dev/kfd and the render node are accessible; you are in the render and video groups.</source>
        <translation>/dev/kfd 和 render 节点均可访问；您已在 render 和 video 组中。</translation>
    </message>
    <message>
        <source>ROCm runtime</source>
        <translation>ROCm 运行环境</translation>
    </message>
    <message>
        <source>{release} is installed, but rocminfo cannot reach the GPU: {error}</source>
        <translation>已安装 {release}，但 rocminfo 无法访问 GPU：{error}</translation>
    </message>
    <message>
        <source>{release} is installed, but rocminfo lists no GPU agent.</source>
        <translation>已安装 {release}，但 rocminfo 没有列出 GPU。</translation>
    </message>
    <message>
        <source>{command}   # then restart the computer if rocminfo still lists no GPU</source>
        <translation>{command}   # 如果 rocminfo 仍未列出 GPU，请重启电脑</translation>
    </message>
    <message>
        <source>{release} is installed; rocminfo sees {names}.</source>
        <translation>已安装 {release}；rocminfo 识别到 {names}。</translation>
    </message>
    <message>
        <source>{release} is installed (rocminfo is not).</source>
        <translation>已安装 {release}（未安装 rocminfo）。</translation>
    </message>
    <message>
        <source>ROCm is not installed system-wide; PyTorch&apos;s ROCm build brings its own runtime (HIP {hip}) and it works.</source>
        <translation>系统中未安装 ROCm；PyTorch 的 ROCm 版自带运行环境（HIP {hip}），可以正常工作。</translation>
    </message>
    <message>
        <source>ROCm is not installed (no /opt/rocm, rocminfo or amd-smi). PyTorch&apos;s ROCm wheels bring their own runtime, but AMD&apos;s tools help find problems.</source>
        <translation>未安装 ROCm（没有 /opt/rocm、rocminfo 或 amd-smi）。PyTorch 的 ROCm 版自带运行环境，但 AMD 的工具有助于排查问题。</translation>
    </message>
    <message>
        <source>{command}   # after installing AMD&apos;s amdgpu-install package for your Linux release from {url}</source>
        <translation>{command}   # 请先从 {url} 安装适合您 Linux 版本的 AMD amdgpu-install 软件包</translation>
    </message>
    <message>
        <source>Cards of this family run with {variable}={value}. VoxDesk can set it at every start (the switch in Help → Doctor), or start it once from a terminal with the command.</source>
        <translation>这一系列的显卡需要设置 {variable}={value} 才能运行。VoxDesk 可以在每次启动时自动设置（“帮助 → 诊断”中的开关），也可以在终端中用这条命令启动一次。</translation>
    </message>
    <message>
        <source>Forcing an override is known to cause page faults on this GPU; ROCm {release} and later support it natively. Install PyTorch built for it.</source>
        <translation>已知在这块 GPU 上强制覆盖会导致页面错误；ROCm {release} 及更高版本原生支持它。请安装为其构建的 PyTorch。</translation>
    </message>
    <message>
        <source>No workaround is known for this GPU. VoxDesk works on the CPU, more slowly.</source>
        <translation>这块 GPU 目前没有已知的解决办法。VoxDesk 可以在 CPU 上运行，只是较慢。</translation>
    </message>
    <message>
        <source>Settings → Device → CPU</source>
        <translation>设置 → 运行于 → CPU</translation>
    </message>
    <message>
        <source>GPU target (gfx)</source>
        <translation>GPU 架构（gfx）</translation>
    </message>
    <message>
        <source>{target}: checked once PyTorch for ROCm is installed (see the first row).</source>
        <translation>{target}：安装 ROCm 版 PyTorch 后再检查（见第一行）。</translation>
    </message>
    <message>
        <source>The GPU target</source>
        <translation>GPU 架构</translation>
    </message>
    <message>
        <source>Not checked: the GPU&apos;s gfx target is not known.</source>
        <translation>未检查：不知道这块 GPU 的 gfx 架构。</translation>
    </message>
    <message>
        <source>{arch} ({variable}={value} in effect)</source>
        <translation>{arch}（已设置 {variable}={value}）</translation>
    </message>
    <message>
        <source>{target}: the installed PyTorch does not list its GPU targets.</source>
        <translation>{target}：已安装的 PyTorch 没有列出它支持的 GPU 架构。</translation>
    </message>
    <message>
        <source>{target}: the installed PyTorch has code for it.</source>
        <translation>{target}：已安装的 PyTorch 支持它。</translation>
    </message>
    <message>
        <source>{target} is not among the GPU targets of the installed PyTorch ({targets}). {advice}</source>
        <translation>已安装的 PyTorch 不支持 {target}（支持的架构：{targets}）。{advice}</translation>
    </message>
    <message>
        <source>Close programs that use the GPU, then run this check again.</source>
        <translation>请关闭正在使用 GPU 的程序，然后再次运行此检查。</translation>
    </message>
    <message>
        <source>Update the graphics driver and ROCm (sudo apt update &amp;&amp; sudo apt full-upgrade), restart, and run this check again; until then choose CPU in Settings → Device.</source>
        <translation>请更新显卡驱动和 ROCm（sudo apt update &amp;&amp; sudo apt full-upgrade），重启后再次运行此检查；在此之前，请在“设置”中把“运行于”选为 CPU。</translation>
    </message>
    <message>
        <source>Run this check again.</source>
        <translation>请再次运行此检查。</translation>
    </message>
    <message>
        <source>GPU test</source>
        <translation>GPU 测试</translation>
    </message>
    <message>
        <source>PyTorch (ROCm build) sees no GPU, so there is nothing to test.</source>
        <translation>PyTorch（ROCm 版）没有识别到 GPU，无法测试。</translation>
    </message>
    <message>
        <source>Fix the rows marked ✗ above, then run this check again.</source>
        <translation>请先修复上面标记为 ✗ 的项目，然后再次运行此检查。</translation>
    </message>
    <message>
        <source>Not applicable: PyTorch sees no GPU to test.</source>
        <translation>不适用：PyTorch 没有识别到可测试的 GPU。</translation>
    </message>
    <message>
        <source>The GPU has not been tested.</source>
        <translation>尚未测试 GPU。</translation>
    </message>
    <message>
        <source>the GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>{steps} on {device}.</source>
        <translation>{device} 上的测试：{steps}。</translation>
    </message>
    <message>
        <source>The test process crashed ({signal}) during {step}. It ran as a separate process, so VoxDesk kept running.</source>
        <translation>测试进程在 {step} 时崩溃（{signal}）。测试在单独的进程中运行，因此 VoxDesk 未受影响。</translation>
    </message>
    <message>
        <source>The test process crashed ({signal}) before the first step. It ran as a separate process, so VoxDesk kept running.</source>
        <translation>测试进程在第一步之前崩溃（{signal}）。测试在单独的进程中运行，因此 VoxDesk 未受影响。</translation>
    </message>
    <message>
        <source>The test stopped answering in {step} and was ended after {seconds:g} s.</source>
        <translation>测试在 {step} 时停止响应，{seconds:g} 秒后被终止。</translation>
    </message>
    <message>
        <source>The test stopped answering before the first step and was ended after {seconds:g} s.</source>
        <translation>测试在第一步之前停止响应，{seconds:g} 秒后被终止。</translation>
    </message>
    <message>
        <source>{step} failed on {device}: {error}</source>
        <translation>{step} 在 {device} 上失败：{error}</translation>
    </message>
    <message>
        <source>The test could not run: {error}</source>
        <translation>测试无法运行：{error}</translation>
    </message>
    <message>
        <source>{finding} Steps: {steps}.</source>
        <translation>{finding}测试步骤：{steps}。</translation>
    </message>
    <message>
        <source>{finding}. Steps: {steps}.</source>
        <translation>{finding}。测试步骤：{steps}。</translation>
    </message>
    <message>
        <source>crashed ({signal})</source>
        <translation>时崩溃（{signal}）</translation>
    </message>
    <message>
        <source>hung</source>
        <translation>时卡住无响应</translation>
    </message>
    <message>
        <source>Not applicable: PyTorch is not installed.</source>
        <translation>不适用：未安装 PyTorch。</translation>
    </message>
    <message>
        <source>torchaudio is not installed; speech synthesis and voice cloning need it.</source>
        <translation>未安装 torchaudio；语音合成和声音克隆需要它。</translation>
    </message>
    <message>
        <source>Importing torchaudio {version} {what} in a test process; inside VoxDesk it would close the window. It should match PyTorch {torch}.</source>
        <translation>在测试进程中导入 torchaudio {version} {what}；如果在 VoxDesk 中导入，窗口会直接关闭。它本应与 PyTorch {torch} 匹配。</translation>
    </message>
    <message>
        <source>Importing torchaudio {version} {what} in a test process; inside VoxDesk it would close the window. It does not match PyTorch {torch}.</source>
        <translation>在测试进程中导入 torchaudio {version} {what}；如果在 VoxDesk 中导入，窗口会直接关闭。它与 PyTorch {torch} 不匹配。</translation>
    </message>
    <message>
        <source>torchaudio {version} does not import: {error}</source>
        <translation>无法导入 torchaudio {version}：{error}</translation>
    </message>
    <message>
        <source>torchaudio {version} is not from the same release as PyTorch {torch}; a mismatched pair can crash.</source>
        <translation>torchaudio {version} 与 PyTorch {torch} 不是同一个版本；版本不匹配可能导致崩溃。</translation>
    </message>
    <message>
        <source>torchaudio {version} matches PyTorch {torch} and imports cleanly.</source>
        <translation>torchaudio {version} 与 PyTorch {torch} 匹配，可正常导入。</translation>
    </message>
    <message>
        <source>{what}. Nothing to do: VoxDesk reads and writes all audio through PyAV, which brings its own FFmpeg.</source>
        <translation>{what}。无需处理：VoxDesk 的所有音频都通过自带 FFmpeg 的 PyAV 读写。</translation>
    </message>
    <message>
        <source>Not needed with PyTorch {torch} (torchaudio loads audio itself).</source>
        <translation>PyTorch {torch} 不需要它（torchaudio 自己读取音频）。</translation>
    </message>
    <message>
        <source>TorchCodec is not installed; with PyTorch {torch} speech synthesis (Coqui TTS) does not start without it.</source>
        <translation>未安装 TorchCodec；使用 PyTorch {torch} 时，没有它语音合成（Coqui TTS）无法启动。</translation>
    </message>
    <message>
        <source>Importing TorchCodec {version} {what} in a test process; inside VoxDesk it would close the window.</source>
        <translation>在测试进程中导入 TorchCodec {version} {what}；如果在 VoxDesk 中导入，窗口会直接关闭。</translation>
    </message>
    <message>
        <source>TorchCodec {version} finds no FFmpeg libraries</source>
        <translation>TorchCodec {version} 找不到 FFmpeg 库</translation>
    </message>
    <message>
        <source>TorchCodec {version} does not import: {error}</source>
        <translation>无法导入 TorchCodec {version}：{error}</translation>
    </message>
    <message>
        <source>TorchCodec {version} was not made for PyTorch {torch}.</source>
        <translation>TorchCodec {version} 不是为 PyTorch {torch} 构建的。</translation>
    </message>
    <message>
        <source>TorchCodec {version} imports, but finds no FFmpeg libraries</source>
        <translation>TorchCodec {version} 可以导入，但找不到 FFmpeg 库</translation>
    </message>
    <message>
        <source>TorchCodec {version} matches PyTorch {torch} and imports cleanly (FFmpeg {ffmpeg}).</source>
        <translation>TorchCodec {version} 与 PyTorch {torch} 匹配，可正常导入（FFmpeg {ffmpeg}）。</translation>
    </message>
    <message>
        <source>TorchCodec {version} matches PyTorch {torch} and imports cleanly.</source>
        <translation>TorchCodec {version} 与 PyTorch {torch} 匹配，可正常导入。</translation>
    </message>
    <message>
        <source>CTranslate2 does not load: its ROCm build does not match the ROCm installed on this computer ({error}). It needs ROCm 7.2; or put back the CPU build with the command.</source>
        <translation>CTranslate2 无法加载：它的 ROCm 版与这台电脑上安装的 ROCm 不匹配（{error}）。它需要 ROCm 7.2；或者用这条命令换回 CPU 版。</translation>
    </message>
    <message>
        <source>CTranslate2 is not installed, so the fast CPU engine (faster-whisper) cannot run.</source>
        <translation>未安装 CTranslate2，快速 CPU 引擎（faster-whisper）无法运行。</translation>
    </message>
    <message>
        <source>none listed</source>
        <translation>未列出</translation>
    </message>
    <message>
        <source>CTranslate2 {version} sees 1 GPU (compute types: {types}).</source>
        <translation>CTranslate2 {version} 识别到 1 块 GPU（计算类型：{types}）。</translation>
    </message>
    <message>
        <source>CTranslate2 {version} sees {count} GPUs (compute types: {types}).</source>
        <translation>CTranslate2 {version} 识别到 {count} 块 GPU（计算类型：{types}）。</translation>
    </message>
    <message>
        <source>PyTorch sees the GPU, CTranslate2 {version} sees none: {reason} On the GPU VoxDesk uses openai-whisper through PyTorch.</source>
        <translation>PyTorch 识别到 GPU，CTranslate2 {version} 却没有识别到：{reason}在 GPU 上，VoxDesk 通过 PyTorch 使用 openai-whisper。</translation>
    </message>
    <message>
        <source>PyTorch sees the GPU, but CTranslate2 {version} sees none: it is the build from the package index, without ROCm, so faster-whisper runs on the processor and on the GPU VoxDesk uses openai-whisper through PyTorch. CTranslate2&apos;s ROCm build fits this card.</source>
        <translation>PyTorch 识别到 GPU，但 CTranslate2 {version} 没有识别到：它是软件包索引中的版本，不支持 ROCm，因此 faster-whisper 在处理器上运行，而在 GPU 上 VoxDesk 通过 PyTorch 使用 openai-whisper。CTranslate2 的 ROCm 版适用于这块显卡。</translation>
    </message>
    <message>
        <source>CTranslate2 {version} is a build without support for this GPU, so faster-whisper runs on the CPU; on the GPU VoxDesk uses openai-whisper through PyTorch.</source>
        <translation>CTranslate2 {version} 的这个版本不支持这块 GPU，因此 faster-whisper 在 CPU 上运行；在 GPU 上 VoxDesk 会通过 PyTorch 使用 openai-whisper。</translation>
    </message>
    <message>
        <source>CTranslate2 {version}, running on the CPU.</source>
        <translation>CTranslate2 {version}，在 CPU 上运行。</translation>
    </message>
    <message>
        <source>Several GPUs</source>
        <translation>多块 GPU</translation>
    </message>
    <message>
        <source>{count} GPU(s) found; nothing to choose.</source>
        <translation>找到 {count} 块 GPU；无需选择。</translation>
    </message>
    <message>
        <source>This computer has a Radeon built into the processor and a Radeon card ({names}); VoxDesk uses the card, {name}, through {variable}={index}.</source>
        <translation>这台电脑既有处理器内置的 Radeon，也有一块 Radeon 显卡（{names}）；VoxDesk 通过 {variable}={index} 使用显卡 {name}。</translation>
    </message>
    <message>
        <source>{finding} {override}={value} applies to every GPU at once and makes the other one run with code that is not its own; set it only together with {variable}.</source>
        <translation>{finding}{override}={value} 会同时作用于所有 GPU，使另一块 GPU 运行不属于它的代码；只能与 {variable} 一起设置。</translation>
    </message>
    <message>
        <source>{finding} An {override} would apply to both GPUs at once: do not set one for this computer without {variable}.</source>
        <translation>{finding}{override} 会同时作用于两块 GPU：在这台电脑上不要在没有 {variable} 的情况下设置它。</translation>
    </message>
    <message>
        <source>GPU gives the right words</source>
        <translation>GPU 转写结果正确</translation>
    </message>
    <message>
        <source>Not applicable: no working GPU to check.</source>
        <translation>不适用：没有可检查的可用 GPU。</translation>
    </message>
    <message>
        <source>Not checked here: it runs before the first transcription on the GPU.</source>
        <translation>此处未检查：它会在第一次用 GPU 转写之前运行。</translation>
    </message>
    <message>
        <source>The check could not run: {error}</source>
        <translation>检查无法运行：{error}</translation>
    </message>
    <message>
        <source>Download a Whisper model (the model list), then run this check again.</source>
        <translation>请先下载一个 Whisper 模型（模型列表），然后再次运行此检查。</translation>
    </message>
    <message>
        <source>Not checked: no Whisper model is on this computer yet.</source>
        <translation>未检查：这台电脑上还没有 Whisper 模型。</translation>
    </message>
    <message>
        <source>Nothing to do: Automatic uses the processor; choose GPU in Settings → Device to use it anyway.</source>
        <translation>无需处理：“自动”会使用处理器；如仍想使用 GPU，请在“设置 → 运行于”中选择 GPU。</translation>
    </message>
    <message>
        <source>Audio decoding</source>
        <translation>音频解码</translation>
    </message>
    <message>
        <source>PyAV cannot decode audio ({error}), so no file can be read.</source>
        <translation>PyAV 无法解码音频（{error}），因此无法读取任何文件。</translation>
    </message>
    <message>
        <source>{used} encodes and decodes audio.</source>
        <translation>{used} 可以正常编码和解码音频。</translation>
    </message>
    <message>
        <source>Microphone</source>
        <translation>麦克风</translation>
    </message>
    <message>
        <source>The list of microphones could not be read ({error}).</source>
        <translation>无法读取麦克风列表（{error}）。</translation>
    </message>
    <message>
        <source>Check that no other program holds the sound card, then run this check again.</source>
        <translation>请确认没有其他程序占用声卡，然后再次运行此检查。</translation>
    </message>
    <message>
        <source>No microphone found; recording is not available (transcribing files works).</source>
        <translation>未找到麦克风，无法录音（转写文件不受影响）。</translation>
    </message>
    <message>
        <source>Plug in a microphone or headset, then run this check again.</source>
        <translation>请插入麦克风或耳麦，然后再次运行此检查。</translation>
    </message>
    <message>
        <source>Default: {name}.</source>
        <translation>默认：{name}。</translation>
    </message>
    <message>
        <source>No default input is set.</source>
        <translation>未设置默认输入设备。</translation>
    </message>
    <message>
        <source>1 input device: {names}. {default}</source>
        <translation>1 个输入设备：{names}。{default}</translation>
    </message>
    <message>
        <source>{count} input devices: {names}. {default}</source>
        <translation>{count} 个输入设备：{names}。{default}</translation>
    </message>
    <message>
        <source>Disk space for models</source>
        <translation>模型所需磁盘空间</translation>
    </message>
    <message>
        <source>The model folder could not be checked ({error}).</source>
        <translation>无法检查模型文件夹（{error}）。</translation>
    </message>
    <message>
        <source>Check that your home folder&apos;s drive is mounted, then run this check again.</source>
        <translation>请确认主文件夹所在的磁盘已挂载，然后再次运行此检查。</translation>
    </message>
    <message>
        <source>Only {free} free for {folder}; the {model} model needs about {size} to download.</source>
        <translation>{folder} 只剩 {free} 可用空间；下载 {model} 模型约需 {size}。</translation>
    </message>
    <message>
        <source>Free at least {size} on the drive that holds {folder} (for example, empty the Trash), then run this check again.</source>
        <translation>请在 {folder} 所在的磁盘上至少腾出 {size}（例如清空回收站），然后再次运行此检查。</translation>
    </message>
    <message>
        <source>{free} free for {folder}: enough for {model}, but not for larger models.</source>
        <translation>{folder} 有 {free} 可用空间：够用 {model}，但放不下更大的模型。</translation>
    </message>
    <message>
        <source>Free some space on the drive that holds {folder} before downloading larger models.</source>
        <translation>下载更大的模型之前，请在 {folder} 所在的磁盘上腾出一些空间。</translation>
    </message>
    <message>
        <source>{free} free for {folder}.</source>
        <translation>{folder} 有 {free} 可用空间。</translation>
    </message>
    <message>
        <source>GPU memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>Not applicable: no GPU.</source>
        <translation>不适用：没有 GPU。</translation>
    </message>
    <message>
        <source>The free GPU memory of {total} could not be read.</source>
        <translation>无法读取可用显存（共 {total}）。</translation>
    </message>
    <message>
        <source>The free GPU memory could not be read.</source>
        <translation>无法读取可用显存。</translation>
    </message>
    <message>
        <source>{free} free; the need of the imported model {model} is not known.</source>
        <translation>可用 {free}；导入的模型 {model} 所需显存未知。</translation>
    </message>
    <message>
        <source>{free} of GPU memory is free; the {model} model needs about {size}, so it may fall back to the CPU.</source>
        <translation>可用显存 {free}；{model} 模型约需 {size}，可能会改用 CPU 运行。</translation>
    </message>
    <message>
        <source>Close programs that use the GPU (games, video), or choose a smaller model in Settings.</source>
        <translation>请关闭使用 GPU 的程序（游戏、视频等），或在设置中选择更小的模型。</translation>
    </message>
    <message>
        <source>{free} free; the {model} model needs about {size}.</source>
        <translation>可用 {free}；{model} 模型约需 {size}。</translation>
    </message>
    <message>
        <source>Detecting the GPU</source>
        <translation>正在检测 GPU</translation>
    </message>
    <message>
        <source>VoxDesk doctor: {summary}</source>
        <translation>VoxDesk 诊断：{summary}</translation>
    </message>
    <message>
        <source>Fix: {fix}</source>
        <translation>解决办法：{fix}</translation>
    </message>
    <message>
        <source>1 problem</source>
        <translation>1 个问题</translation>
    </message>
    <message>
        <source>{count} problems</source>
        <translation>{count} 个问题</translation>
    </message>
    <message>
        <source>1 warning</source>
        <translation>1 个警告</translation>
    </message>
    <message>
        <source>{count} warnings</source>
        <translation>{count} 个警告</translation>
    </message>
    <message>
        <source>{problems}, {warnings}.</source>
        <translation>{problems}，{warnings}。</translation>
    </message>
    <message>
        <source>Model downloads</source>
        <translation>模型下载</translation>
    </message>
    <message>
        <source> Shared model folders in use: {count}.</source>
        <translation>正在使用的共享模型文件夹：{count} 个。</translation>
    </message>
    <message>
        <source>No download source answers from this computer ({failing}).{shared}</source>
        <translation>从这台电脑无法连接任何下载来源（{failing}）。{shared}</translation>
    </message>
    <message>
        <source>Use File → Import model…, or ask your IT department for the shared model folder (Settings → Downloads).</source>
        <translation>请使用“文件 → 导入模型…”，或向 IT 部门索取共享模型文件夹（设置 → 下载）。</translation>
    </message>
    <message>
        <source>Downloads work from {working}.{shared}</source>
        <translation>可以从 {working} 下载。{shared}</translation>
    </message>
    <message>
        <source>Downloads work from {working}; {failing} cannot be reached from here.{shared}</source>
        <translation>可以从 {working} 下载；从这里无法连接 {failing}。{shared}</translation>
    </message>
    <message>
        <source>The chosen download source ({chosen}) cannot be reached, but {working} can.{shared}</source>
        <translation>无法连接所选的下载来源（{chosen}），但可以连接 {working}。{shared}</translation>
    </message>
    <message>
        <source>The chosen download source ({chosen}) does not work, but {working} does.{shared}</source>
        <translation>所选的下载来源（{chosen}）无法使用，但 {working} 可以使用。{shared}</translation>
    </message>
    <message>
        <source>Choose {source} in Settings → Downloads.</source>
        <translation>请在“设置 → 下载”中选择 {source}。</translation>
    </message>
</context>
<context>
    <name>DoctorDialog</name>
    <message>
        <source>Doctor: check this computer</source>
        <translation>诊断：检查这台电脑</translation>
    </message>
    <message>
        <source>Run again</source>
        <translation>重新检查</translation>
    </message>
    <message>
        <source>Copy report</source>
        <translation>复制报告</translation>
    </message>
    <message>
        <source>Checking this computer… This can take a minute.</source>
        <translation>正在检查这台电脑…可能需要一分钟。</translation>
    </message>
    <message>
        <source>Checking this computer… ({step})</source>
        <translation>正在检查这台电脑…（{step}）</translation>
    </message>
    <message>
        <source>The checks could not finish: {message}</source>
        <translation>检查未能完成：{message}</translation>
    </message>
    <message>
        <source>Restart VoxDesk to apply {variable}={value}.</source>
        <translation>请重启 VoxDesk 以应用 {variable}={value}。</translation>
    </message>
    <message>
        <source>Restart VoxDesk to start without {variable}.</source>
        <translation>请重启 VoxDesk，以便不带 {variable} 启动。</translation>
    </message>
    <message>
        <source>Problems to fix: {errors}. Warnings: {warnings}.</source>
        <translation>需要修复的问题：{errors} 个。警告：{warnings} 个。</translation>
    </message>
    <message>
        <source>Nothing is broken. Warnings: {warnings}.</source>
        <translation>没有发现问题。警告：{warnings} 个。</translation>
    </message>
    <message>
        <source>Everything is in order.</source>
        <translation>一切正常。</translation>
    </message>
    <message>
        <source>Fix:</source>
        <translation>解决办法：</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Apply {variable}={value} at next start</source>
        <translation>下次启动时应用 {variable}={value}</translation>
    </message>
    <message>
        <source>VoxDesk sets this before the GPU runtime starts. Restart VoxDesk for it to take effect.</source>
        <translation>VoxDesk 会在 GPU 运行环境启动前设置它。重启 VoxDesk 后生效。</translation>
    </message>
</context>
<context>
    <name>DownloadDialog</name>
    <message>
        <source>Downloading a model</source>
        <translation>正在下载模型</translation>
    </message>
    <message>
        <source>VoxDesk needs the “{name}” model ({size} MB) to transcribe. It is downloaded once and then kept on this computer.</source>
        <translation>转写需要“{name}”模型（{size} MB）。只需下载一次，之后会保存在这台电脑上。</translation>
    </message>
    <message>
        <source>VoxDesk needs the “{name}” model to transcribe. It is downloaded once and then kept on this computer.</source>
        <translation>转写需要“{name}”模型。只需下载一次，之后会保存在这台电脑上。</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>正在连接…</translation>
    </message>
    <message>
        <source>{done:.0f} of {total:.0f} MB</source>
        <translation>{done:.0f} / {total:.0f} MB</translation>
    </message>
    <message>
        <source>{done:.0f} MB</source>
        <translation>{done:.0f} MB</translation>
    </message>
    <message>
        <source>VoxDesk needs the voice model “{title}” (about {size} MB). It is downloaded once and then kept on this computer.</source>
        <translation>需要语音模型“{title}”（约 {size} MB）。只需下载一次，之后会保存在这台电脑上。</translation>
    </message>
    <message>
        <source>VoxDesk needs the voice model “{title}”. It is downloaded once and then kept on this computer.</source>
        <translation>需要语音模型“{title}”。只需下载一次，之后会保存在这台电脑上。</translation>
    </message>
    <message>
        <source>Downloading a voice model</source>
        <translation>正在下载语音模型</translation>
    </message>
</context>
<context>
    <name>Downloads</name>
    <message>
        <source>Automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>Hugging Face</source>
        <translation>Hugging Face</translation>
    </message>
    <message>
        <source>hf-mirror.com (mirror in mainland China)</source>
        <translation>hf-mirror.com（中国大陆镜像）</translation>
    </message>
    <message>
        <source>Company mirror</source>
        <translation>公司镜像</translation>
    </message>
</context>
<context>
    <name>DownloadsBox</name>
    <message>
        <source>Downloads</source>
        <translation>下载</translation>
    </message>
    <message>
        <source>Automatic tries Hugging Face first and switches to hf-mirror.com when Hugging Face cannot be reached within a few seconds.</source>
        <translation>“自动”会先尝试 Hugging Face，几秒内连接不上时改用 hf-mirror.com。</translation>
    </message>
    <message>
        <source>Download models from:</source>
        <translation>模型下载来源：</translation>
    </message>
    <message>
        <source>Company mirror address:</source>
        <translation>公司镜像地址：</translation>
    </message>
    <message>
        <source>https://… (a mirror of Hugging Face in your company)</source>
        <translation>https://…（贵公司的 Hugging Face 镜像）</translation>
    </message>
    <message>
        <source>Shared model folders:</source>
        <translation>共享模型文件夹：</translation>
    </message>
    <message>
        <source>Folders your IT department fills with models, searched before anything is downloaded. VoxDesk only reads them.</source>
        <translation>由 IT 部门放入模型的文件夹，下载之前会先在这里查找。VoxDesk 只读取这些文件夹。</translation>
    </message>
    <message>
        <source>Choose a shared model folder</source>
        <translation>选择共享模型文件夹</translation>
    </message>
    <message>
        <source>Enter the mirror&apos;s address, starting with https:// or http://.</source>
        <translation>请输入镜像地址，以 https:// 或 http:// 开头。</translation>
    </message>
</context>
<context>
    <name>EditorPanel</name>
    <message>
        <source>Text:</source>
        <translation>文字：</translation>
    </message>
    <message>
        <source>Type or paste the text to read aloud: a notice, an announcement, a training script. Chinese, English or both.</source>
        <translation>输入或粘贴要朗读的文字：通知、公告、培训讲稿等。中文、英文或中英混合均可。</translation>
    </message>
    <message>
        <source>Open text file…</source>
        <translation>打开文本文件…</translation>
    </message>
    <message>
        <source>Open a text file</source>
        <translation>打开文本文件</translation>
    </message>
    <message>
        <source>Text files (*.txt);;All files (*)</source>
        <translation>文本文件 (*.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>{count} characters</source>
        <translation>{count} 个字符</translation>
    </message>
</context>
<context>
    <name>Edits</name>
    <message>
        <source>edit line {line}</source>
        <translation>编辑第 {line} 行</translation>
    </message>
    <message>
        <source>change the times of line {line}</source>
        <translation>修改第 {line} 行的时间</translation>
    </message>
    <message>
        <source>Line {line} would end before it starts: its end must come after {start}.</source>
        <translation>第 {line} 行的结束时间会早于开始时间：结束时间必须晚于 {start}。</translation>
    </message>
    <message>
        <source>Line {line} would start before the recording does: the earliest start is 00:00:00.000.</source>
        <translation>第 {line} 行会在录音开始之前开始：最早只能从 00:00:00.000 开始。</translation>
    </message>
    <message>
        <source>Line {line} would start before line {previous} ends: the earliest start is {time}, or change line {previous} first.</source>
        <translation>第 {line} 行会在第 {previous} 行结束之前开始：最早只能从 {time} 开始，或先修改第 {previous} 行。</translation>
    </message>
    <message>
        <source>Line {line} would end after line {next} starts: the latest end is {time}, or change line {next} first.</source>
        <translation>第 {line} 行会在第 {next} 行开始之后才结束：最晚只能在 {time} 结束，或先修改第 {next} 行。</translation>
    </message>
    <message>
        <source>Line {line} would end after the recording does: the latest end is {time}.</source>
        <translation>第 {line} 行会在录音结束之后才结束：最晚只能在 {time} 结束。</translation>
    </message>
    <message>
        <source>change the speaker of line {line}</source>
        <translation>修改第 {line} 行的说话人</translation>
    </message>
    <message>
        <source>rename {speaker}</source>
        <translation>重命名{speaker}</translation>
    </message>
    <message>
        <source>accept {name} for {speaker}</source>
        <translation>将{speaker}确认为{name}</translation>
    </message>
    <message>
        <source>not {name} for {speaker}</source>
        <translation>{speaker}不是{name}</translation>
    </message>
    <message>
        <source>Line {line} no longer has that glossary correction.</source>
        <translation>第 {line} 行已没有这处术语表更正。</translation>
    </message>
    <message>
        <source>restore “{original}” in line {line}</source>
        <translation>恢复第 {line} 行的“{original}”</translation>
    </message>
    <message>
        <source>remove all glossary corrections ({count})</source>
        <translation>去掉全部术语表更正（{count} 处）</translation>
    </message>
    <message>
        <source>Line {line} has no place to split there: put the cursor between two words.</source>
        <translation>第 {line} 行在这里无法拆分：请把光标放在两个词之间。</translation>
    </message>
    <message>
        <source>split line {line}</source>
        <translation>拆分第 {line} 行</translation>
    </message>
    <message>
        <source>Line {line} is the last one: there is no next line to merge it with.</source>
        <translation>第 {line} 行是最后一行：没有下一行可以合并。</translation>
    </message>
    <message>
        <source>merge line {line} with the next</source>
        <translation>将第 {line} 行与下一行合并</translation>
    </message>
    <message>
        <source>Line 1 would start before the recording does: shift by at most {seconds} s earlier.</source>
        <translation>第 1 行会在录音开始之前开始：最多只能提前 {seconds} 秒。</translation>
    </message>
    <message>
        <source>Line {line} would overlap line {previous}: shift by at most {seconds} s earlier, or move that line too.</source>
        <translation>第 {line} 行会与第 {previous} 行重叠：最多只能提前 {seconds} 秒，或把那一行也一起移动。</translation>
    </message>
    <message>
        <source>Line {line} would end after the recording does: shift by at most {seconds} s later.</source>
        <translation>第 {line} 行会在录音结束之后才结束：最多只能推后 {seconds} 秒。</translation>
    </message>
    <message>
        <source>Line {line} would overlap line {next}: shift by at most {seconds} s later, or move that line too.</source>
        <translation>第 {line} 行会与第 {next} 行重叠：最多只能推后 {seconds} 秒，或把那一行也一起移动。</translation>
    </message>
    <message>
        <source>insert line {line}</source>
        <translation>插入第 {line} 行</translation>
    </message>
    <message>
        <source>There is no room before line 1: it starts where the recording does. Make it start later first.</source>
        <translation>第 1 行之前没有空隙：它从录音开头就开始了。请先让它晚一点开始。</translation>
    </message>
    <message>
        <source>There is no room after line {line}: it ends where the recording does. Make it end earlier first.</source>
        <translation>第 {line} 行之后没有空隙：它一直到录音结束。请先让它早一点结束。</translation>
    </message>
    <message>
        <source>There is no room between line {line} and line {next}: make line {line} end earlier or line {next} start later first.</source>
        <translation>第 {line} 行和第 {next} 行之间没有空隙：请先让第 {line} 行早一点结束，或让第 {next} 行晚一点开始。</translation>
    </message>
    <message>
        <source>delete line {line}</source>
        <translation>删除第 {line} 行</translation>
    </message>
    <message>
        <source>delete {count} lines</source>
        <translation>删除 {count} 行</translation>
    </message>
    <message>
        <source>Select lines next to each other to shift them together.</source>
        <translation>要一起平移，请选择相邻的几行。</translation>
    </message>
    <message>
        <source>shift line {line}</source>
        <translation>平移第 {line} 行</translation>
    </message>
    <message>
        <source>shift lines {first}–{last}</source>
        <translation>平移第 {first}–{last} 行</translation>
    </message>
    <message>
        <source>replace “{text}” in line {line}</source>
        <translation>替换第 {line} 行的“{text}”</translation>
    </message>
    <message>
        <source>replace “{text}” ({count}×)</source>
        <translation>替换“{text}”（{count} 处）</translation>
    </message>
    <message>
        <source>open the subtitles “{name}”</source>
        <translation>打开字幕“{name}”</translation>
    </message>
    <message>
        <source>The lines changed while they were being transcribed again, so nothing was replaced. Try again.</source>
        <translation>重新转写期间这些行被改动了，因此没有替换任何内容。请再试一次。</translation>
    </message>
    <message>
        <source>transcribe again line {line}</source>
        <translation>重新转写第 {line} 行</translation>
    </message>
    <message>
        <source>transcribe again lines {first}–{last}</source>
        <translation>重新转写第 {first}–{last} 行</translation>
    </message>
    <message>
        <source>line {line}</source>
        <translation>第 {line} 行</translation>
    </message>
    <message>
        <source>lines {first}–{last}</source>
        <translation>第 {first}–{last} 行</translation>
    </message>
    <message>
        <source>Select the lines to transcribe again.</source>
        <translation>请选择要重新转写的行。</translation>
    </message>
    <message>
        <source>Select lines next to each other to transcribe them again together.</source>
        <translation>要一起重新转写，请选择相邻的几行。</translation>
    </message>
    <message>
        <source>There is too little of the recording under {lines} to transcribe it again.</source>
        <translation>{lines}对应的录音太短，无法重新转写。</translation>
    </message>
    <message>
        <source>No words were heard in {span} this time, so nothing was replaced. Try another model or language.</source>
        <translation>这次在 {span} 中没有听到任何话语，因此没有替换任何内容。请换一个模型或语言再试。</translation>
    </message>
    <message>
        <source>label speakers</source>
        <translation>标注说话人</translation>
    </message>
    <message>
        <source>revert to the transcription</source>
        <translation>恢复为转写结果</translation>
    </message>
</context>
<context>
    <name>Engine</name>
    <message>
        <source>The graphics card ran out of memory; choose a smaller model or the processor (CPU) in Settings.</source>
        <translation>显卡内存不足；请选择更小的模型，或在设置中改用处理器（CPU）。</translation>
    </message>
    <message>
        <source>The graphics card failed while transcribing; choose the processor (CPU) in Settings and try again.</source>
        <translation>转写时显卡出错；请在设置中改用处理器（CPU）后重试。</translation>
    </message>
    <message>
        <source>The computer ran out of memory; close other programs or choose a smaller model.</source>
        <translation>电脑内存不足；请关闭其他程序或选择更小的模型。</translation>
    </message>
    <message>
        <source>The model failed while transcribing; it may be damaged. Remove it and download or import it again.</source>
        <translation>转写时模型出错，它可能已损坏。请删除后重新下载或导入。</translation>
    </message>
    <message>
        <source>The model file is damaged or is not a Whisper model; remove it and download or import it again.</source>
        <translation>模型文件已损坏或不是 Whisper 模型；请删除后重新下载或导入。</translation>
    </message>
    <message>
        <source>The model file is missing; download or import the model again.</source>
        <translation>模型文件丢失；请重新下载或导入模型。</translation>
    </message>
    <message>
        <source>This model only understands English; choose a multilingual model (one without “.en”) for other languages.</source>
        <translation>这个模型只懂英文；其他语言请选择多语言模型（名称中不带“.en”的）。</translation>
    </message>
    <message>
        <source>This model only understands English, so it cannot translate; choose a multilingual model (one without “.en”).</source>
        <translation>这个模型只懂英文，无法翻译；请选择多语言模型（名称中不带“.en”的）。</translation>
    </message>
    <message>
        <source>“{language}” is not a language Whisper knows; pick one from the list or choose automatic detection.</source>
        <translation>Whisper 不认识语言“{language}”；请从列表中选择，或选择自动检测。</translation>
    </message>
    <message>
        <source>The model files are missing; download or import the model again.</source>
        <translation>模型文件丢失；请重新下载或导入模型。</translation>
    </message>
    <message>
        <source>The model file could not be opened.</source>
        <translation>无法打开模型文件。</translation>
    </message>
    <message>
        <source>This model is not a Whisper speech recognition model.</source>
        <translation>这不是 Whisper 语音识别模型。</translation>
    </message>
    <message>
        <source>This Whisper model has a separate output layer, which VoxDesk cannot convert; use it with the fast (CTranslate2) engine instead.</source>
        <translation>这个 Whisper 模型带有独立的输出层，VoxDesk 无法转换；请改用快速（CTranslate2）引擎。</translation>
    </message>
    <message>
        <source>This Whisper model has parts VoxDesk cannot convert; use it with the fast (CTranslate2) engine instead.</source>
        <translation>这个 Whisper 模型中有 VoxDesk 无法转换的部分；请改用快速（CTranslate2）引擎。</translation>
    </message>
    <message>
        <source>There is too little speech in the recording to recognise the voice. Use a recording in which the person speaks for several seconds.</source>
        <translation>录音中的语音太少，无法识别声音。请使用说话人连续讲了几秒钟的录音。</translation>
    </message>
    <message>
        <source>Speech was heard in this file, but none of it could be transcribed; try a larger model, or choose the language.</source>
        <translation>这个文件中检测到了语音，但一句也未能转写；请换用更大的模型，或选择语言。</translation>
    </message>
    <message>
        <source>No transcription server is set: enter its address in Settings → Transcription server (on the command line: --server URL).</source>
        <translation>尚未设置转写服务器：请在“设置 → 转写服务器”中输入其地址（命令行中使用 --server URL）。</translation>
    </message>
    <message>
        <source>The graphics driver stopped responding; continuing on the CPU…</source>
        <translation>显卡驱动停止响应，改用 CPU 继续…</translation>
    </message>
    <message>
        <source>Settings ask for the GPU, but VoxDesk found no working GPU on this computer. Choose &quot;Automatic&quot; or &quot;CPU&quot; in Settings, or open Help → Doctor to see how to fix the GPU.</source>
        <translation>设置中要求使用 GPU，但 VoxDesk 在这台电脑上没有找到可用的 GPU。请在“设置”中选择“自动”或“CPU”，或打开“帮助 → 诊断”查看如何修复 GPU。</translation>
    </message>
    <message>
        <source>There is no model called &quot;{model}&quot;: choose one from the list, or import it first (File → Import model… in the window, voxdesk models import on the command line).</source>
        <translation>没有名为“{model}”的模型：请从列表中选择，或先导入（窗口中用“文件 → 导入模型…”，命令行中用 voxdesk models import）。</translation>
    </message>
    <message>
        <source>The model &quot;{model}&quot; is not on this computer yet: download it from the model list, or import it (File → Import model… in the window, voxdesk models import on the command line).</source>
        <translation>这台电脑上还没有模型“{model}”：请从模型列表中下载，或导入（窗口中用“文件 → 导入模型…”，命令行中用 voxdesk models import）。</translation>
    </message>
    <message>
        <source>Loading the {name} model on the {where}…</source>
        <translation>正在 {where} 上加载 {name} 模型…</translation>
    </message>
    <message>
        <source>Waiting for the transcription under way to finish…</source>
        <translation>正在等待进行中的转写完成…</translation>
    </message>
    <message>
        <source>Reading the file…</source>
        <translation>正在读取文件…</translation>
    </message>
    <message>
        <source>Transcribing…</source>
        <translation>正在转写…</translation>
    </message>
    <message>
        <source>The GPU could not load the model; using the CPU…</source>
        <translation>GPU 无法加载模型，改用 CPU…</translation>
    </message>
    <message>
        <source>Checking that the GPU gives the right words…</source>
        <translation>正在检查 GPU 的转写结果是否正确…</translation>
    </message>
    <message>
        <source>check the GPU</source>
        <translation>检查 GPU</translation>
    </message>
    <message>
        <source>load model</source>
        <translation>加载模型</translation>
    </message>
    <message>
        <source>The GPU failed; continuing on the CPU…</source>
        <translation>GPU 出错，改用 CPU 继续…</translation>
    </message>
    <message>
        <source>Part of the recording is damaged (samples that are not numbers: {count}); it was replaced with silence.</source>
        <translation>录音有一部分已损坏（非数值采样点：{count} 个），已用静音代替。</translation>
    </message>
    <message>
        <source>The fast engine cannot use the graphics card on this computer; choose the processor (CPU) for it, or the standard engine for the graphics card.</source>
        <translation>快速引擎无法使用这台电脑的显卡；请为它选择处理器（CPU），或使用显卡时选择标准引擎。</translation>
    </message>
    <message>
        <source>The model could not be loaded; it may be damaged. Remove it and download or import it again.</source>
        <translation>无法加载模型，它可能已损坏。请删除后重新下载或导入。</translation>
    </message>
    <message>
        <source>This computer cannot run the fast engine with “{requested}” precision; choose automatic precision in Settings.</source>
        <translation>这台电脑无法以“{requested}”精度运行快速引擎；请在设置中选择自动精度。</translation>
    </message>
    <message>
        <source>The model folder is missing its tokenizer and VoxDesk could not add it; check that the folder is writable, or import the model again.</source>
        <translation>模型文件夹缺少分词器，VoxDesk 也无法补上；请确认该文件夹可写，或重新导入模型。</translation>
    </message>
    <message>
        <source>the converted model</source>
        <translation>转换后的模型</translation>
    </message>
    <message>
        <source>This Whisper model has an unusual vocabulary that VoxDesk cannot convert.</source>
        <translation>这个 Whisper 模型的词表不常见，VoxDesk 无法转换。</translation>
    </message>
    <message>
        <source>No usable graphics card was found for transcription; choose the processor (CPU) in Settings.</source>
        <translation>没有找到可用于转写的显卡；请在设置中改用处理器（CPU）。</translation>
    </message>
    <message>
        <source>The transcription server failed; continuing on this computer…</source>
        <translation>转写服务器出错；正在本机继续…</translation>
    </message>
    <message>
        <source>The speaker model that comes with VoxDesk could not be read; reinstall VoxDesk.</source>
        <translation>无法读取 VoxDesk 自带的说话人模型；请重新安装 VoxDesk。</translation>
    </message>
    <message>
        <source>Labelling speakers…</source>
        <translation>正在标注说话人…</translation>
    </message>
    <message>
        <source>The graphics driver stopped responding; VoxDesk carries on with the processor (CPU).</source>
        <translation>显卡驱动停止响应；VoxDesk 改用处理器（CPU）继续。</translation>
    </message>
    <message>
        <source>The transcription engine stopped unexpectedly. Try the file again; if it happens again, choose a smaller model in Settings.</source>
        <translation>转写引擎意外停止。请重新转写这个文件；如果再次出现，请在设置中选择更小的模型。</translation>
    </message>
    <message>
        <source>The transcription engine stopped responding for {seconds} seconds, so VoxDesk stopped it. Try the file again; if it happens again, choose a smaller model in Settings.</source>
        <translation>转写引擎 {seconds} 秒没有响应，VoxDesk 已将其停止。请重新转写这个文件；如果再次出现，请在设置中选择更小的模型。</translation>
    </message>
    <message>
        <source>The system stopped the transcription engine, most likely because the computer ran out of memory; close other programs or choose a smaller model.</source>
        <translation>系统停止了转写引擎，很可能是因为电脑内存不足；请关闭其他程序，或选择更小的模型。</translation>
    </message>
    <message>
        <source>This model understands only English; the speech may be in another language: choose a multilingual model.</source>
        <translation>此模型只能听懂英语；语音可能是其他语言：请选择多语言模型。</translation>
    </message>
</context>
<context>
    <name>EngineChoice</name>
    <message>
        <source>Model folder…</source>
        <translation>模型文件夹…</translation>
    </message>
    <message>
        <source>XTTS v2 is a voice model that copies the saved voice from its sample and speaks 17 languages. Its licence, the CPML (Coqui Public Model License), is a non-commercial licence: the speech may not be used for business.</source>
        <translation>XTTS v2 是一个语音模型，它根据样本复刻已保存的声音，能说 17 种语言。它的许可协议 CPML（Coqui 公共模型许可协议）是非商业许可协议：生成的语音不得用于商业用途。</translation>
    </message>
    <message>
        <source>OpenVoice v2: a standard voice model reads the text, then OpenVoice makes it sound like the saved voice. Its MIT licence allows commercial use.</source>
        <translation>OpenVoice v2：先由一个标准语音模型朗读文字，再由 OpenVoice 让它听起来像已保存的声音。它的 MIT 许可协议允许商业使用。</translation>
    </message>
    <message>
        <source>Where the chosen voice model&apos;s files are on this computer: for XTTS v2 its model folder, for OpenVoice v2 its converter folder (the one with config.json and checkpoint.pth).</source>
        <translation>所选语音模型的文件在这台电脑上的位置：XTTS v2 是它的模型文件夹，OpenVoice v2 是它的转换器文件夹（其中有 config.json 和 checkpoint.pth）。</translation>
    </message>
    <message>
        <source>Choose the XTTS v2 model folder</source>
        <translation>选择 XTTS v2 模型文件夹</translation>
    </message>
    <message>
        <source>Choose the OpenVoice v2 converter folder</source>
        <translation>选择 OpenVoice v2 转换器文件夹</translation>
    </message>
    <message>
        <source>{engine} on the GPU: measured fastest on this computer ({factor:.0f}× real time).</source>
        <translation>GPU 上使用 {engine}：在本机测得最快（实时速度的 {factor:.0f} 倍）。</translation>
    </message>
    <message>
        <source>openai-whisper on the GPU: the installed CTranslate2 sees no GPU.</source>
        <translation>GPU 上使用 openai-whisper：已安装的 CTranslate2 没有识别到 GPU。</translation>
    </message>
    <message>
        <source>{engine} on the GPU (the engines have not been measured on this computer yet).</source>
        <translation>GPU 上使用 {engine}（尚未在本机测量各引擎的速度）。</translation>
    </message>
</context>
<context>
    <name>ExportBar</name>
    <message>
        <source>Export as:</source>
        <translation>导出格式：</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>文字</translation>
    </message>
    <message>
        <source>Save to:</source>
        <translation>保存到：</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Export all</source>
        <translation>全部导出</translation>
    </message>
    <message>
        <source>Next to each recording</source>
        <translation>与录音放在同一文件夹</translation>
    </message>
    <message>
        <source>Choose a folder…</source>
        <translation>选择文件夹…</translation>
    </message>
    <message>
        <source>Save exports in</source>
        <translation>导出文件保存到</translation>
    </message>
    <message>
        <source>• This transcript changed since you exported it to “{folder}”: export it again to update the files.</source>
        <translation>• 这份转写稿在您导出到“{folder}”之后又有改动：请再次导出以更新文件。</translation>
    </message>
    <message>
        <source>Saving…</source>
        <translation>正在保存…</translation>
    </message>
    <message>
        <source>Existing files were kept.</source>
        <translation>已保留原有文件。</translation>
    </message>
    <message>
        <source>Saved “{name}” in {folder}.</source>
        <translation>已将“{name}”保存到 {folder}。</translation>
    </message>
    <message>
        <source>next to the recordings</source>
        <translation>录音所在的文件夹</translation>
    </message>
    <message>
        <source>Saved {count} files in {folder}.</source>
        <translation>已将 {count} 个文件保存到 {folder}。</translation>
    </message>
    <message>
        <source>“{recording}” was saved as {names}, so that it does not replace another file of this export.</source>
        <translation>“{recording}”已保存为 {names}，以免覆盖本次导出的其他文件。</translation>
    </message>
</context>
<context>
    <name>ExportDone</name>
    <message>
        <source>Export finished</source>
        <translation>导出完成</translation>
    </message>
    <message>
        <source>“{name}” was saved in {folder}.</source>
        <translation>“{name}”已保存到 {folder}。</translation>
    </message>
    <message>
        <source>{count} files were saved.</source>
        <translation>已保存 {count} 个文件。</translation>
    </message>
    <message>
        <source>Open &amp;file</source>
        <translation>打开文件(&amp;F)</translation>
    </message>
    <message>
        <source>Open f&amp;older</source>
        <translation>打开文件夹(&amp;O)</translation>
    </message>
</context>
<context>
    <name>Fallback</name>
    <message>
        <source>The graphics driver stopped responding, so this ran on the CPU, and VoxDesk uses the CPU until it is started again. Help → Doctor tests the GPU step by step and shows the fix.</source>
        <translation>显卡驱动停止响应，因此这一步改在 CPU 上运行，VoxDesk 重新启动之前都会使用 CPU。“帮助 → 诊断”会逐步检查 GPU 并给出解决方法。</translation>
    </message>
    <message>
        <source>The graphics card ran out of memory. Close other programs that use the GPU, or choose a smaller model in Settings.</source>
        <translation>显卡内存不足。请关闭其他使用 GPU 的程序，或在设置中选择更小的模型。</translation>
    </message>
    <message>
        <source>The installed PyTorch has no code for this graphics card. Help → Doctor tests the GPU step by step and shows the fix.</source>
        <translation>已安装的 PyTorch 不支持这块显卡。“帮助 → 诊断”会逐步测试 GPU 并给出解决办法。</translation>
    </message>
    <message>
        <source>VoxDesk may not use the graphics card yet. Run: {command} then log out and back in.</source>
        <translation>VoxDesk 目前还无权使用显卡。请运行：{command}，然后注销并重新登录。</translation>
    </message>
    <message>
        <source>The GPU&apos;s FFT library failed; updating ROCm usually fixes this. Until then this step runs on the CPU.</source>
        <translation>GPU 的 FFT 库出错；更新 ROCm 通常可以解决。在此之前，这一步在 CPU 上运行。</translation>
    </message>
    <message>
        <source>The GPU&apos;s convolution library (MIOpen) failed; updating ROCm usually fixes this. Until then this step runs on the CPU.</source>
        <translation>GPU 的卷积库（MIOpen）出错；更新 ROCm 通常可以解决。在此之前，这一步在 CPU 上运行。</translation>
    </message>
    <message>
        <source>The installed PyTorch cannot run this step on the GPU, so it ran on the CPU. A newer PyTorch may add it.</source>
        <translation>已安装的 PyTorch 无法在 GPU 上运行这一步，因此改在 CPU 上运行。更新的 PyTorch 可能会支持。</translation>
    </message>
    <message>
        <source>The GPU failed, so this ran on the CPU. Help → Doctor tests the GPU step by step and shows the fix.</source>
        <translation>GPU 出错，因此改在 CPU 上运行。“帮助 → 诊断”会逐步测试 GPU 并给出解决办法。</translation>
    </message>
    <message>
        <source>transcription server</source>
        <translation>转写服务器</translation>
    </message>
</context>
<context>
    <name>FallbackDialog</name>
    <message>
        <source>CPU fallbacks</source>
        <translation>改用 CPU 的记录</translation>
    </message>
    <message>
        <source>These jobs could not finish on the GPU, so VoxDesk finished them on the CPU.</source>
        <translation>以下任务无法在 GPU 上完成，VoxDesk 已改在 CPU 上完成。</translation>
    </message>
    <message>
        <source>Copy all</source>
        <translation>全部复制</translation>
    </message>
    <message>
        <source>Server fallbacks</source>
        <translation>改在本机完成的记录</translation>
    </message>
    <message>
        <source>The transcription server failed on these jobs, so VoxDesk finished them on this computer.</source>
        <translation>转录服务器在这些任务上出错，因此 VoxDesk 在这台电脑上完成了它们。</translation>
    </message>
    <message>
        <source>Fallbacks</source>
        <translation>改用备用方式的记录</translation>
    </message>
    <message>
        <source>These jobs could not finish on the GPU or on the transcription server, so VoxDesk finished them on this computer.</source>
        <translation>这些任务无法在 GPU 或转录服务器上完成，因此 VoxDesk 在这台电脑上完成了它们。</translation>
    </message>
    <message>
        <source>When</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Job</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>Stage</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Suggested fix</source>
        <translation>建议的解决办法</translation>
    </message>
    <message>
        <source>{name}: {value}</source>
        <translation>{name}：{value}</translation>
    </message>
</context>
<context>
    <name>Files</name>
    <message>
        <source>VoxDesk cannot write to the folder {folder}. Choose another folder, or ask for write permission.</source>
        <translation>VoxDesk 无法写入文件夹 {folder}。请选择其他文件夹，或申请写入权限。</translation>
    </message>
    <message>
        <source>The disk is full, so {what} could not be saved. Free some space or choose another folder, then try again.</source>
        <translation>磁盘已满，无法保存{what}。请释放一些空间或选择其他文件夹，然后重试。</translation>
    </message>
    <message>
        <source>The disk is full, so {what} could not be saved. Free some space, then try again.</source>
        <translation>磁盘已满，无法保存{what}。请释放一些空间后重试。</translation>
    </message>
    <message>
        <source>This disk cannot hold a file as large as {what}, so it could not be saved. Free some space or ask your IT department for room on another disk, then try again.</source>
        <translation>这个磁盘放不下{what}这么大的文件，因此无法保存。请释放一些空间，或请 IT 部门在另一个磁盘上提供空间，然后重试。</translation>
    </message>
    <message>
        <source>VoxDesk cannot write to the folder {folder}, so {what} could not be saved. Ask for write permission, then try again.</source>
        <translation>VoxDesk 无法写入文件夹 {folder}，因此无法保存{what}。请申请写入权限后重试。</translation>
    </message>
    <message>
        <source>The folder {folder} does not exist. Choose another folder.</source>
        <translation>文件夹 {folder} 不存在。请选择其他文件夹。</translation>
    </message>
    <message>
        <source>VoxDesk cannot save into {folder} because it is not a folder. Choose another folder.</source>
        <translation>{folder} 不是文件夹，VoxDesk 无法保存到那里。请选择其他文件夹。</translation>
    </message>
    <message>
        <source>{what} is a folder, so VoxDesk cannot save the file under that name. Choose another name.</source>
        <translation>{what}是一个文件夹，VoxDesk 无法用这个名称保存文件。请换一个名称。</translation>
    </message>
    <message>
        <source>VoxDesk could not save {what} in {folder}. Check that the folder is still available, then try again.</source>
        <translation>VoxDesk 无法在 {folder} 中保存{what}。请确认该文件夹仍然可用，然后重试。</translation>
    </message>
    <message>
        <source>The file name is too long for this disk. Choose a shorter name.</source>
        <translation>文件名太长，这个磁盘无法保存。请换一个短一些的名称。</translation>
    </message>
    <message>
        <source>VoxDesk could not save “{name}”: its text holds characters that cannot be written to a file. Remove the characters that show as boxes or question marks, then try again.</source>
        <translation>VoxDesk 无法保存“{name}”：其中的文字含有无法写入文件的字符。请删除显示为方框或问号的字符，然后重试。</translation>
    </message>
    <message>
        <source>A file named “{name}” already exists in {folder}. Choose another name, or allow VoxDesk to replace it.</source>
        <translation>{folder} 中已有名为“{name}”的文件。请换一个名称，或允许 VoxDesk 替换它。</translation>
    </message>
    <message>
        <source>a folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>a link to another place</source>
        <translation>指向其他位置的链接</translation>
    </message>
    <message>
        <source>a named pipe (FIFO)</source>
        <translation>命名管道（FIFO）</translation>
    </message>
    <message>
        <source>a socket</source>
        <translation>套接字</translation>
    </message>
    <message>
        <source>a device</source>
        <translation>设备文件</translation>
    </message>
    <message>
        <source>a special file</source>
        <translation>特殊文件</translation>
    </message>
    <message>
        <source>“{name}” is {kind}, not a regular file, so VoxDesk will not open it. Choose a regular file.</source>
        <translation>“{name}”是{kind}，不是普通文件，VoxDesk 不会打开它。请选择普通文件。</translation>
    </message>
    <message>
        <source>“{name}” in the folder “{folder}” is a link to another place. Put the real file in the folder instead of the link.</source>
        <translation>文件夹“{folder}”中的“{name}”是指向其他位置的链接。请把真正的文件放进文件夹，而不是链接。</translation>
    </message>
</context>
<context>
    <name>FindReplaceDialog</name>
    <message>
        <source>Find and replace</source>
        <translation>查找和替换</translation>
    </message>
    <message>
        <source>&amp;Find:</source>
        <translation>查找(&amp;F)：</translation>
    </message>
    <message>
        <source>Replace &amp;with:</source>
        <translation>替换为(&amp;W)：</translation>
    </message>
    <message>
        <source>Match &amp;case</source>
        <translation>区分大小写(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Whole words</source>
        <translation>全字匹配(&amp;W)</translation>
    </message>
    <message>
        <source>For Latin text, such as English: “cat” does not find “category”. Chinese is always found by its characters.</source>
        <translation>用于英文等拉丁字母文字：“cat”不会找到“category”。中文总是按字查找。</translation>
    </message>
    <message>
        <source>Also in &amp;speaker names</source>
        <translation>也在说话人名称中查找(&amp;S)</translation>
    </message>
    <message>
        <source>Find &amp;next</source>
        <translation>查找下一个(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Replace</source>
        <translation>替换(&amp;R)</translation>
    </message>
    <message>
        <source>Replace &amp;all</source>
        <translation>全部替换(&amp;A)</translation>
    </message>
    <message>
        <source>Select a transcribed file in the list to search its transcript.</source>
        <translation>请在列表中选择一个已转写的文件，以在其转写文本中查找。</translation>
    </message>
    <message>
        <source>{count} match(es)</source>
        <translation>{count} 处匹配</translation>
    </message>
    <message>
        <source>{count} match(es) replaced.</source>
        <translation>已替换 {count} 处。</translation>
    </message>
</context>
<context>
    <name>FolderListEditor</name>
    <message>
        <source>Add folder…</source>
        <translation>添加文件夹…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
</context>
<context>
    <name>GlossariesDialog</name>
    <message>
        <source>Glossaries</source>
        <translation>术语表</translation>
    </message>
    <message>
        <source>&amp;New…</source>
        <translation>新建(&amp;N)…</translation>
    </message>
    <message>
        <source>&amp;Import a file…</source>
        <translation>导入文件(&amp;I)…</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>删除(&amp;R)</translation>
    </message>
    <message>
        <source>Term, spelled as it should be written</source>
        <translation>术语，按应有的写法输入</translation>
    </message>
    <message>
        <source>Optional: how Whisper mishears it, separated by commas</source>
        <translation>可选：Whisper 误听成的写法，用逗号分隔</translation>
    </message>
    <message>
        <source>&amp;Add term</source>
        <translation>添加术语(&amp;A)</translation>
    </message>
    <message>
        <source>Remove &amp;term</source>
        <translation>删除术语(&amp;T)</translation>
    </message>
    <message>
        <source>(shared, read-only)</source>
        <translation>（共享，只读）</translation>
    </message>
    <message>
        <source>Used for: {files}</source>
        <translation>用于：{files}</translation>
    </message>
    <message>
        <source>Not used for a transcript yet.</source>
        <translation>尚未用于任何转写。</translation>
    </message>
    <message>
        <source>New glossary</source>
        <translation>新建术语表</translation>
    </message>
    <message>
        <source>Name of the glossary:</source>
        <translation>术语表名称：</translation>
    </message>
    <message>
        <source>Import a glossary</source>
        <translation>导入术语表</translation>
    </message>
    <message>
        <source>Glossaries (*.txt);;All files (*)</source>
        <translation>术语表 (*.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Remove glossary</source>
        <translation>删除术语表</translation>
    </message>
    <message>
        <source>Remove the glossary “{name}” and its terms?</source>
        <translation>删除术语表“{name}”及其中的术语？</translation>
    </message>
</context>
<context>
    <name>Glossary</name>
    <message>
        <source>The glossary “{name}” is larger than {limit} MB, so it was not used. A glossary lists one term per line; split a larger list into several files.</source>
        <translation>术语表“{name}”大于 {limit} MB，因此未使用。术语表每行一个术语；请把较大的列表拆分成几个文件。</translation>
    </message>
    <message>
        <source>The glossary “{name}” was not found, so it was not used. Check that the file is still there.</source>
        <translation>找不到术语表“{name}”，因此未使用。请检查该文件是否还在。</translation>
    </message>
    <message>
        <source>The glossary “{name}” could not be read, so it was not used: {reason}</source>
        <translation>无法读取术语表“{name}”，因此未使用：{reason}</translation>
    </message>
    <message>
        <source>The glossary “{name}” is not UTF-8 text (line {line}), so it was not used. Save it again as UTF-8 in your text editor.</source>
        <translation>术语表“{name}”不是 UTF-8 文本（第 {line} 行），因此未使用。请在文本编辑器中将其另存为 UTF-8。</translation>
    </message>
    <message>
        <source>a term or spelling is longer than {limit} characters</source>
        <translation>有术语或写法超过 {limit} 个字符</translation>
    </message>
    <message>
        <source>it contains control characters</source>
        <translation>其中含有控制字符</translation>
    </message>
    <message>
        <source>more than {limit} misheard spellings</source>
        <translation>误听写法超过 {limit} 个</translation>
    </message>
    <message>
        <source>The glossary “{name}”, line {line}: “{term}” has no letters, so it was left out; the other lines are used.</source>
        <translation>术语表“{name}”第 {line} 行：“{term}”不含任何字母或汉字，因此未使用这一行；其余各行照常使用。</translation>
    </message>
    <message>
        <source>more than {limit} terms</source>
        <translation>术语超过 {limit} 个</translation>
    </message>
    <message>
        <source>The glossary “{name}”, line {line}: “{term}” is the term “{first}” of line {first_line} in other letter case, so it is written “{first}”.</source>
        <translation>术语表“{name}”第 {line} 行：“{term}”与第 {first_line} 行的术语“{first}”只是大小写不同，已合并为一个术语，写作“{first}”。</translation>
    </message>
    <message>
        <source>The glossary “{name}”, line {line}: the misheard spelling “{spelling}” has no letters or digits, so it was left out.</source>
        <translation>术语表“{name}”第 {line} 行：误听写法“{spelling}”不含任何字母或数字，因此未使用。</translation>
    </message>
    <message>
        <source>The glossary “{name}”, line {line}: {reason}. It was not used; correct that line and try again.</source>
        <translation>术语表“{name}”第 {line} 行：{reason}。该术语表未使用；请改正这一行后重试。</translation>
    </message>
    <message>
        <source>“{term}” in the glossary “{name}” is the term “{first}” of the glossary “{other}” in other letter case, so it is written “{first}”.</source>
        <translation>术语表“{name}”中的“{term}”与术语表“{other}”中的术语“{first}”只是大小写不同，已合并为一个术语，写作“{first}”。</translation>
    </message>
    <message>
        <source>“{term}” has no letters, so it cannot be a term. Write the name or word as it should appear.</source>
        <translation>“{term}”不含任何字母或汉字，不能作为术语。请按应有的写法输入名称或词语。</translation>
    </message>
    <message>
        <source>“{name}” is a shared glossary; only your IT department can remove it.</source>
        <translation>“{name}”是共享术语表，只有 IT 部门可以删除它。</translation>
    </message>
    <message>
        <source>“{name}” cannot be a glossary&apos;s name. Use letters, digits and spaces, without “/”.</source>
        <translation>“{name}”不能用作术语表名称。请使用字母、数字和空格，不要包含“/”。</translation>
    </message>
</context>
<context>
    <name>GlossaryFoldersBox</name>
    <message>
        <source>Shared glossaries</source>
        <translation>共享术语表</translation>
    </message>
    <message>
        <source>Folders your IT department fills with glossaries (.txt files of names and terms) for everyone. VoxDesk only reads them.</source>
        <translation>IT 部门为所有人放置术语表（列有名称和术语的 .txt 文件）的文件夹。VoxDesk 只读取它们。</translation>
    </message>
    <message>
        <source>Choose a shared glossary folder</source>
        <translation>选择共享术语表文件夹</translation>
    </message>
</context>
<context>
    <name>GlossaryPicker</name>
    <message>
        <source>(shared)</source>
        <translation>（共享）</translation>
    </message>
    <message>
        <source>No glossaries yet: Tools → Glossaries…</source>
        <translation>还没有术语表：工具 → 术语表…</translation>
    </message>
    <message>
        <source>Glossaries: {names}</source>
        <translation>术语表：{names}</translation>
    </message>
    <message>
        <source>Glossaries: none</source>
        <translation>术语表：无</translation>
    </message>
    <message>
        <source>The office&apos;s names and terms: Whisper is told them, and what it mishears as one of them is corrected in the transcript.</source>
        <translation>单位常用的名称和术语：转写时会告诉 Whisper，转写稿中被误听的写法会改正为这些术语。</translation>
    </message>
</context>
<context>
    <name>ImportModelDialog</name>
    <message>
        <source>Import a model</source>
        <translation>导入模型</translation>
    </message>
    <message>
        <source>Bring in a Whisper model copied from another computer: an openai-whisper “.pt” file, or a faster-whisper (CTranslate2) folder holding config.json, model.bin and the vocabulary.</source>
        <translation>导入从其他电脑复制来的 Whisper 模型：可以是 openai-whisper 的“.pt”文件，也可以是包含 config.json、model.bin 和词表的 faster-whisper（CTranslate2）文件夹。</translation>
    </message>
    <message>
        <source>No model chosen</source>
        <translation>未选择模型</translation>
    </message>
    <message>
        <source>Choose a .pt file…</source>
        <translation>选择 .pt 文件…</translation>
    </message>
    <message>
        <source>Choose a folder…</source>
        <translation>选择文件夹…</translation>
    </message>
    <message>
        <source>The name shown in the model list</source>
        <translation>在模型列表中显示的名称</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>模型：</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <source>Checking and copying the model…</source>
        <translation>正在检查并复制模型…</translation>
    </message>
    <message>
        <source>This is a copy of the official “{name}” model. Under that name it stands in for the download: VoxDesk uses it wherever “{name}” is chosen, and downloads nothing.</source>
        <translation>这是官方“{name}”模型的副本。用这个名称导入后，它可代替下载：凡是选择“{name}”的地方，VoxDesk 都会使用它，不再下载。</translation>
    </message>
    <message>
        <source>Choose a Whisper model file</source>
        <translation>选择 Whisper 模型文件</translation>
    </message>
    <message>
        <source>Whisper models (*.pt);;All files (*)</source>
        <translation>Whisper 模型 (*.pt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Choose the model folder</source>
        <translation>选择模型文件夹</translation>
    </message>
</context>
<context>
    <name>Job</name>
    <message>
        <source>Something went wrong that VoxDesk did not expect. The details are in the log file.</source>
        <translation>发生了意外错误。详细信息已写入日志文件。</translation>
    </message>
</context>
<context>
    <name>KnownAnswer</name>
    <message>
        <source>Fix: update the graphics driver and ROCm (sudo apt update &amp;&amp; sudo apt full-upgrade), restart, and run Help → Doctor again.</source>
        <translation>解决办法：更新显卡驱动和 ROCm（sudo apt update &amp;&amp; sudo apt full-upgrade），重启后再次运行“帮助 → 诊断”。</translation>
    </message>
    <message>
        <source>The graphics card gave wrong results with {engine} ({percent}% of the words of the test speech differ from the processor&apos;s); VoxDesk uses the processor. {fix}</source>
        <translation>显卡使用 {engine} 时给出了错误的结果（测试语音中有 {percent}% 的词与处理器的结果不同）；VoxDesk 改用处理器。{fix}</translation>
    </message>
    <message>
        <source>The graphics card is slower than the processor with {engine} ({gpu:.1f} s against {cpu:.1f} s for the test speech), so Automatic uses the processor.</source>
        <translation>使用 {engine} 时显卡比处理器慢（测试语音用时 {gpu:.1f} 秒，处理器 {cpu:.1f} 秒），因此“自动”使用处理器。</translation>
    </message>
    <message>
        <source>GPU check passed with {engine}: same words as the processor, {gpu:.1f} s against {cpu:.1f} s.</source>
        <translation>使用 {engine} 的 GPU 检查通过：结果与处理器相同，用时 {gpu:.1f} 秒，处理器 {cpu:.1f} 秒。</translation>
    </message>
    <message>
        <source>GPU check</source>
        <translation>GPU 检查</translation>
    </message>
</context>
<context>
    <name>KnownVoices</name>
    <message>
        <source>This voice comes without the person&apos;s agreement to be recognised, so VoxDesk will not keep it. Add the voice again with their agreement.</source>
        <translation>这个声音没有本人同意被识别的授权，VoxDesk 不会保存它。请在取得本人同意后重新添加。</translation>
    </message>
    <message>
        <source>One known voice (folder “{folder}”) is damaged or was changed outside VoxDesk, so it is not used. Remove it, and add the person again with their agreement.</source>
        <translation>有一个已知声音（文件夹“{folder}”）已损坏或在 VoxDesk 之外被修改，因此不会使用。请删除它，并在取得本人同意后重新添加。</translation>
    </message>
    <message>
        <source>The name contains characters that cannot be shown (such as a line break or a control character). Type the name again.</source>
        <translation>姓名中含有无法显示的字符（例如换行符或控制字符）。请重新输入姓名。</translation>
    </message>
    <message>
        <source>Type the person&apos;s name.</source>
        <translation>请输入此人的姓名。</translation>
    </message>
    <message>
        <source>The name is too long. Use at most {count} characters.</source>
        <translation>名称太长。最多 {count} 个字符。</translation>
    </message>
    <message>
        <source>A name cannot contain the characters &lt; or &gt;. Type the name without them.</source>
        <translation>姓名不能包含 &lt; 或 &gt; 字符。请去掉它们后重新输入。</translation>
    </message>
    <message>
        <source>There is no known voice named “{name}”. Run `voxdesk speakers list` or open Tools → Known voices… to see the names.</source>
        <translation>没有名为“{name}”的已知声音。请运行 `voxdesk speakers list`，或打开“工具 → 已知声音…”查看姓名。</translation>
    </message>
    <message>
        <source>VoxDesk cannot read its known voices in {folder}. Check that the folder is yours and readable.</source>
        <translation>VoxDesk 无法读取 {folder} 中的已知声音。请确认该文件夹属于您并且可读。</translation>
    </message>
    <message>
        <source>VoxDesk keeps a voice only with the person&apos;s agreement to be recognised. Confirm that they agreed, or let them read the agreement sentence.</source>
        <translation>只有在本人同意被识别时，VoxDesk 才会保存其声音。请确认对方已同意，或请对方朗读同意声明。</translation>
    </message>
    <message>
        <source>The known voice “{name}” has been removed.</source>
        <translation>已知声音“{name}”已被删除。</translation>
    </message>
    <message>
        <source>A known voice named “{name}” already exists. Choose another name, or remove that voice first.</source>
        <translation>已存在名为“{name}”的已知声音。请换一个姓名，或先删除那个声音。</translation>
    </message>
    <message>
        <source>the known voices</source>
        <translation>已知声音</translation>
    </message>
    <message>
        <source>“{name}” is not a known-voice file exported by VoxDesk, or it was changed after it was exported, so VoxDesk will not import it. Export the voice again on the other computer.</source>
        <translation>“{name}”不是 VoxDesk 导出的已知声音文件，或者导出后被修改过，因此 VoxDesk 不会导入它。请在另一台电脑上重新导出该声音。</translation>
    </message>
    <message>
        <source>VoxDesk cannot read “{name}”. Check that the file is there and readable.</source>
        <translation>VoxDesk 无法读取“{name}”。请确认文件存在并且可读。</translation>
    </message>
    <message>
        <source>No clear speech was heard in the sample (it may be silence, music or noise). Use a recording of at least {needed:g} seconds of the person speaking on their own.</source>
        <translation>样本中没有听到清晰的说话声（可能是静音、音乐或噪音）。请使用此人单独说话至少 {needed:g} 秒的录音。</translation>
    </message>
    <message>
        <source>The sample holds {seconds:.1f} seconds of clear speech by this person; VoxDesk needs at least {needed:g}. Add about {more:g} seconds more of them speaking on their own.</source>
        <translation>样本中只有此人 {seconds:.1f} 秒的清晰说话声，VoxDesk 至少需要 {needed:g} 秒。请再补充约 {more:g} 秒此人单独说话的录音。</translation>
    </message>
    <message>
        <source>More than one voice speaks in the sample, so VoxDesk cannot tell which is this person. Use a recording where only they speak.</source>
        <translation>样本中有不止一个人在说话，VoxDesk 无法分辨哪一个是此人。请使用只有此人说话的录音。</translation>
    </message>
    <message>
        <source>The agreement recording and the sample do not sound like the same person. The person whose voice is kept must read the sentence themselves.</source>
        <translation>同意声明录音和样本听起来不是同一个人。必须由被保存声音的本人亲自朗读声明。</translation>
    </message>
    <message>
        <source>Listening to the agreement…</source>
        <translation>正在听取同意声明…</translation>
    </message>
    <message>
        <source>Learning the voice…</source>
        <translation>正在学习声音…</translation>
    </message>
</context>
<context>
    <name>KnownVoicesDialog</name>
    <message>
        <source>Known voices</source>
        <translation>已知声音</translation>
    </message>
    <message>
        <source>VoxDesk names these colleagues when it labels speakers. Each of them agreed to be recognised in this office&apos;s recordings. What is kept is the sound of their voice, not a recording.</source>
        <translation>VoxDesk 在标注说话人时会认出这些同事并写上姓名。他们每人都同意在本办公室的录音中被识别。保存的是其声音特征，而不是录音。</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>姓名</translation>
    </message>
    <message>
        <source>Agreement</source>
        <translation>同意记录</translation>
    </message>
    <message>
        <source>Heard in</source>
        <translation>出现次数</translation>
    </message>
    <message>
        <source>Speech</source>
        <translation>语音时长</translation>
    </message>
    <message>
        <source>No known voices yet. Add a colleague below, with their agreement.</source>
        <translation>还没有已知声音。请在下方添加一位已同意的同事。</translation>
    </message>
    <message>
        <source>Remove the damaged entries</source>
        <translation>删除已损坏的条目</translation>
    </message>
    <message>
        <source>&amp;Rename…</source>
        <translation>改名(&amp;R)…</translation>
    </message>
    <message>
        <source>Re&amp;move</source>
        <translation>删除(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>导出(&amp;E)…</translation>
    </message>
    <message>
        <source>&amp;Import…</source>
        <translation>导入(&amp;I)…</translation>
    </message>
    <message>
        <source>Add a colleague</source>
        <translation>添加同事</translation>
    </message>
    <message>
        <source>Their name, as transcripts will show it</source>
        <translation>姓名（文字稿中将这样显示）</translation>
    </message>
    <message>
        <source>English</source>
        <translation>英语</translation>
    </message>
    <message>
        <source>Chinese</source>
        <translation>中文</translation>
    </message>
    <message>
        <source>Show the &amp;sentence</source>
        <translation>显示声明(&amp;S)</translation>
    </message>
    <message>
        <source>Or choose a recording of the sentence…</source>
        <translation>或选择声明的录音…</translation>
    </message>
    <message>
        <source>Choose a sample of their speech (optional)…</source>
        <translation>选择此人的说话样本（可选）…</translation>
    </message>
    <message>
        <source>Check the agreement and &amp;add</source>
        <translation>核对同意声明并添加(&amp;A)</translation>
    </message>
    <message>
        <source>Person:</source>
        <translation>人员：</translation>
    </message>
    <message>
        <source>1 recording</source>
        <translation>1 段录音</translation>
    </message>
    <message>
        <source>{count} recordings</source>
        <translation>{count} 段录音</translation>
    </message>
    <message>
        <source>{seconds:.0f} s</source>
        <translation>{seconds:.0f} 秒</translation>
    </message>
    <message>
        <source>Read the agreement sentence aloud on {when} (added by {who})</source>
        <translation>于 {when} 朗读了同意声明（由 {who} 添加）</translation>
    </message>
    <message>
        <source>Agreement confirmed by {who} on {when}</source>
        <translation>由 {who} 于 {when} 确认已同意</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>改名</translation>
    </message>
    <message>
        <source>New name:</source>
        <translation>新名称：</translation>
    </message>
    <message>
        <source>Renamed.</source>
        <translation>已改名。</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Remove “{name}”? Everything VoxDesk keeps of this voice and the agreement is deleted; transcripts already named keep the name.</source>
        <translation>删除“{name}”吗？VoxDesk 保存的此声音及同意记录将全部删除；已写上姓名的文字稿保留该姓名。</translation>
    </message>
    <message>
        <source>Removed.</source>
        <translation>已删除。</translation>
    </message>
    <message>
        <source>Export a known voice</source>
        <translation>导出已知声音</translation>
    </message>
    <message>
        <source>Known voice (*{suffix})</source>
        <translation>已知声音 (*{suffix})</translation>
    </message>
    <message>
        <source>Exported, with the agreement.</source>
        <translation>已连同同意记录一起导出。</translation>
    </message>
    <message>
        <source>Import a known voice</source>
        <translation>导入已知声音</translation>
    </message>
    <message>
        <source>Imported.</source>
        <translation>已导入。</translation>
    </message>
    <message>
        <source>{name} reads this aloud, with the code, and you record it:
“{text}”</source>
        <translation>请{name}朗读下面这句话（包括验证码），由您录下来：
“{text}”</translation>
    </message>
    <message>
        <source>The recording of the agreement sentence</source>
        <translation>同意声明的录音</translation>
    </message>
    <message>
        <source>Recorded: {seconds:.0f} s</source>
        <translation>已录音：{seconds:.0f} 秒</translation>
    </message>
    <message>
        <source>A sample of their speech</source>
        <translation>此人的说话样本</translation>
    </message>
    <message>
        <source>Recordings (*.wav *.flac *.mp3 *.m4a *.ogg *.opus *.webm *.mp4)</source>
        <translation>录音 (*.wav *.flac *.mp3 *.m4a *.ogg *.opus *.webm *.mp4)</translation>
    </message>
    <message>
        <source>Added “{name}” from {seconds:.0f} s of speech.</source>
        <translation>已根据 {seconds:.0f} 秒语音添加“{name}”。</translation>
    </message>
</context>
<context>
    <name>Languages</name>
    <message>
        <source>English</source>
        <translation>英语</translation>
    </message>
    <message>
        <source>Chinese</source>
        <translation>中文</translation>
    </message>
    <message>
        <source>German</source>
        <translation>德语</translation>
    </message>
    <message>
        <source>Spanish</source>
        <translation>西班牙语</translation>
    </message>
    <message>
        <source>Russian</source>
        <translation>俄语</translation>
    </message>
    <message>
        <source>Korean</source>
        <translation>韩语</translation>
    </message>
    <message>
        <source>French</source>
        <translation>法语</translation>
    </message>
    <message>
        <source>Japanese</source>
        <translation>日语</translation>
    </message>
    <message>
        <source>Portuguese</source>
        <translation>葡萄牙语</translation>
    </message>
    <message>
        <source>Turkish</source>
        <translation>土耳其语</translation>
    </message>
    <message>
        <source>Polish</source>
        <translation>波兰语</translation>
    </message>
    <message>
        <source>Catalan</source>
        <translation>加泰罗尼亚语</translation>
    </message>
    <message>
        <source>Dutch</source>
        <translation>荷兰语</translation>
    </message>
    <message>
        <source>Arabic</source>
        <translation>阿拉伯语</translation>
    </message>
    <message>
        <source>Swedish</source>
        <translation>瑞典语</translation>
    </message>
    <message>
        <source>Italian</source>
        <translation>意大利语</translation>
    </message>
    <message>
        <source>Indonesian</source>
        <translation>印尼语</translation>
    </message>
    <message>
        <source>Hindi</source>
        <translation>印地语</translation>
    </message>
    <message>
        <source>Finnish</source>
        <translation>芬兰语</translation>
    </message>
    <message>
        <source>Vietnamese</source>
        <translation>越南语</translation>
    </message>
    <message>
        <source>Hebrew</source>
        <translation>希伯来语</translation>
    </message>
    <message>
        <source>Ukrainian</source>
        <translation>乌克兰语</translation>
    </message>
    <message>
        <source>Greek</source>
        <translation>希腊语</translation>
    </message>
    <message>
        <source>Malay</source>
        <translation>马来语</translation>
    </message>
    <message>
        <source>Czech</source>
        <translation>捷克语</translation>
    </message>
    <message>
        <source>Romanian</source>
        <translation>罗马尼亚语</translation>
    </message>
    <message>
        <source>Danish</source>
        <translation>丹麦语</translation>
    </message>
    <message>
        <source>Hungarian</source>
        <translation>匈牙利语</translation>
    </message>
    <message>
        <source>Tamil</source>
        <translation>泰米尔语</translation>
    </message>
    <message>
        <source>Norwegian</source>
        <translation>挪威语</translation>
    </message>
    <message>
        <source>Thai</source>
        <translation>泰语</translation>
    </message>
    <message>
        <source>Urdu</source>
        <translation>乌尔都语</translation>
    </message>
    <message>
        <source>Croatian</source>
        <translation>克罗地亚语</translation>
    </message>
    <message>
        <source>Bulgarian</source>
        <translation>保加利亚语</translation>
    </message>
    <message>
        <source>Lithuanian</source>
        <translation>立陶宛语</translation>
    </message>
    <message>
        <source>Latin</source>
        <translation>拉丁语</translation>
    </message>
    <message>
        <source>Maori</source>
        <translation>毛利语</translation>
    </message>
    <message>
        <source>Malayalam</source>
        <translation>马拉雅拉姆语</translation>
    </message>
    <message>
        <source>Welsh</source>
        <translation>威尔士语</translation>
    </message>
    <message>
        <source>Slovak</source>
        <translation>斯洛伐克语</translation>
    </message>
    <message>
        <source>Telugu</source>
        <translation>泰卢固语</translation>
    </message>
    <message>
        <source>Persian</source>
        <translation>波斯语</translation>
    </message>
    <message>
        <source>Latvian</source>
        <translation>拉脱维亚语</translation>
    </message>
    <message>
        <source>Bengali</source>
        <translation>孟加拉语</translation>
    </message>
    <message>
        <source>Serbian</source>
        <translation>塞尔维亚语</translation>
    </message>
    <message>
        <source>Azerbaijani</source>
        <translation>阿塞拜疆语</translation>
    </message>
    <message>
        <source>Slovenian</source>
        <translation>斯洛文尼亚语</translation>
    </message>
    <message>
        <source>Kannada</source>
        <translation>卡纳达语</translation>
    </message>
    <message>
        <source>Estonian</source>
        <translation>爱沙尼亚语</translation>
    </message>
    <message>
        <source>Macedonian</source>
        <translation>马其顿语</translation>
    </message>
    <message>
        <source>Breton</source>
        <translation>布列塔尼语</translation>
    </message>
    <message>
        <source>Basque</source>
        <translation>巴斯克语</translation>
    </message>
    <message>
        <source>Icelandic</source>
        <translation>冰岛语</translation>
    </message>
    <message>
        <source>Armenian</source>
        <translation>亚美尼亚语</translation>
    </message>
    <message>
        <source>Nepali</source>
        <translation>尼泊尔语</translation>
    </message>
    <message>
        <source>Mongolian</source>
        <translation>蒙古语</translation>
    </message>
    <message>
        <source>Bosnian</source>
        <translation>波斯尼亚语</translation>
    </message>
    <message>
        <source>Kazakh</source>
        <translation>哈萨克语</translation>
    </message>
    <message>
        <source>Albanian</source>
        <translation>阿尔巴尼亚语</translation>
    </message>
    <message>
        <source>Swahili</source>
        <translation>斯瓦希里语</translation>
    </message>
    <message>
        <source>Galician</source>
        <translation>加利西亚语</translation>
    </message>
    <message>
        <source>Marathi</source>
        <translation>马拉地语</translation>
    </message>
    <message>
        <source>Punjabi</source>
        <translation>旁遮普语</translation>
    </message>
    <message>
        <source>Sinhala</source>
        <translation>僧伽罗语</translation>
    </message>
    <message>
        <source>Khmer</source>
        <translation>高棉语</translation>
    </message>
    <message>
        <source>Shona</source>
        <translation>绍纳语</translation>
    </message>
    <message>
        <source>Yoruba</source>
        <translation>约鲁巴语</translation>
    </message>
    <message>
        <source>Somali</source>
        <translation>索马里语</translation>
    </message>
    <message>
        <source>Afrikaans</source>
        <translation>南非荷兰语</translation>
    </message>
    <message>
        <source>Occitan</source>
        <translation>奥克语</translation>
    </message>
    <message>
        <source>Georgian</source>
        <translation>格鲁吉亚语</translation>
    </message>
    <message>
        <source>Belarusian</source>
        <translation>白俄罗斯语</translation>
    </message>
    <message>
        <source>Tajik</source>
        <translation>塔吉克语</translation>
    </message>
    <message>
        <source>Sindhi</source>
        <translation>信德语</translation>
    </message>
    <message>
        <source>Gujarati</source>
        <translation>古吉拉特语</translation>
    </message>
    <message>
        <source>Amharic</source>
        <translation>阿姆哈拉语</translation>
    </message>
    <message>
        <source>Yiddish</source>
        <translation>意第绪语</translation>
    </message>
    <message>
        <source>Lao</source>
        <translation>老挝语</translation>
    </message>
    <message>
        <source>Uzbek</source>
        <translation>乌兹别克语</translation>
    </message>
    <message>
        <source>Faroese</source>
        <translation>法罗语</translation>
    </message>
    <message>
        <source>Haitian Creole</source>
        <translation>海地克里奥尔语</translation>
    </message>
    <message>
        <source>Pashto</source>
        <translation>普什图语</translation>
    </message>
    <message>
        <source>Turkmen</source>
        <translation>土库曼语</translation>
    </message>
    <message>
        <source>Nynorsk</source>
        <translation>新挪威语</translation>
    </message>
    <message>
        <source>Maltese</source>
        <translation>马耳他语</translation>
    </message>
    <message>
        <source>Sanskrit</source>
        <translation>梵语</translation>
    </message>
    <message>
        <source>Luxembourgish</source>
        <translation>卢森堡语</translation>
    </message>
    <message>
        <source>Myanmar</source>
        <translation>缅甸语</translation>
    </message>
    <message>
        <source>Tibetan</source>
        <translation>藏语</translation>
    </message>
    <message>
        <source>Tagalog</source>
        <translation>他加禄语</translation>
    </message>
    <message>
        <source>Malagasy</source>
        <translation>马达加斯加语</translation>
    </message>
    <message>
        <source>Assamese</source>
        <translation>阿萨姆语</translation>
    </message>
    <message>
        <source>Tatar</source>
        <translation>鞑靼语</translation>
    </message>
    <message>
        <source>Hawaiian</source>
        <translation>夏威夷语</translation>
    </message>
    <message>
        <source>Lingala</source>
        <translation>林加拉语</translation>
    </message>
    <message>
        <source>Hausa</source>
        <translation>豪萨语</translation>
    </message>
    <message>
        <source>Bashkir</source>
        <translation>巴什基尔语</translation>
    </message>
    <message>
        <source>Javanese</source>
        <translation>爪哇语</translation>
    </message>
    <message>
        <source>Sundanese</source>
        <translation>巽他语</translation>
    </message>
    <message>
        <source>Cantonese</source>
        <translation>粤语</translation>
    </message>
    <message>
        <source>Ewe</source>
        <translation>埃维语</translation>
    </message>
    <message>
        <source>Irish</source>
        <translation>爱尔兰语</translation>
    </message>
    <message>
        <source>Twi</source>
        <translation>契维语</translation>
    </message>
</context>
<context>
    <name>LevelMeter</name>
    <message>
        <source>Speak at a level that stays out of the red part of the meter.</source>
        <translation>说话音量请保持在电平表的红色区域以外。</translation>
    </message>
</context>
<context>
    <name>LicenceDialog</name>
    <message>
        <source>Licence of {title}</source>
        <translation>{title} 的许可协议</translation>
    </message>
    <message>
        <source>“{title}” is published under the {licence} licence. Before it is downloaded, please confirm:</source>
        <translation>“{title}”按 {licence} 许可协议发布。下载前请确认：</translation>
    </message>
    <message>
        <source>I confirm one of the statements above</source>
        <translation>我确认以上声明之一</translation>
    </message>
    <message>
        <source>Accept and download</source>
        <translation>接受并下载</translation>
    </message>
</context>
<context>
    <name>LicencePanel</name>
    <message>
        <source>I confirm the statements above</source>
        <translation>我确认以上声明</translation>
    </message>
    <message>
        <source>Accept the licence</source>
        <translation>接受许可协议</translation>
    </message>
    <message>
        <source>{title} is published under the {licence} licence: it may be used for non-commercial purposes only. Before using it, please confirm:</source>
        <translation>{title} 按 {licence} 许可协议发布，仅限非商业用途。使用前请确认：</translation>
    </message>
</context>
<context>
    <name>LiveCaptionWindow</name>
    <message>
        <source>Live captions</source>
        <translation>实时字幕</translation>
    </message>
</context>
<context>
    <name>LiveCaptions</name>
    <message>
        <source>Loading the {model} model…</source>
        <translation>正在加载 {model} 模型…</translation>
    </message>
</context>
<context>
    <name>LiveCapture</name>
    <message>
        <source>the recording</source>
        <translation>录音</translation>
    </message>
    <message>
        <source>The recording could not be written any more (the disk may be full). What was written until now is kept in “{path}”.</source>
        <translation>录音无法继续写入（磁盘可能已满）。已写入的部分保存在“{path}”。</translation>
    </message>
</context>
<context>
    <name>LiveEngine</name>
    <message>
        <source>The model “{model}” is not on this computer yet. Start live captions again to download it, or choose a model you have.</source>
        <translation>本机还没有“{model}”模型。请再次开始实时字幕以下载它，或选择一个已有的模型。</translation>
    </message>
    <message>
        <source>live captions</source>
        <translation>实时字幕</translation>
    </message>
</context>
<context>
    <name>LiveLauncher</name>
    <message>
        <source>Start live captions</source>
        <translation>开始实时字幕</translation>
    </message>
    <message>
        <source>Captions as people speak, from a microphone or what this computer plays.</source>
        <translation>边说边出字幕，来源可以是麦克风，也可以是本机正在播放的声音。</translation>
    </message>
</context>
<context>
    <name>LivePanel</name>
    <message>
        <source>Live captions</source>
        <translation>实时字幕</translation>
    </message>
    <message>
        <source>Listen to:</source>
        <translation>收听：</translation>
    </message>
    <message>
        <source>Language:</source>
        <translation>语言：</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>模型：</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Large caption window</source>
        <translation>大字幕窗口</translation>
    </message>
    <message>
        <source>The last two lines in big type, always on top: for a presentation.</source>
        <translation>以大字显示最后两行，窗口始终置顶：适合演示时使用。</translation>
    </message>
    <message>
        <source>Open folder</source>
        <translation>打开文件夹</translation>
    </message>
    <message>
        <source>The folder where every live recording is kept: {folder}</source>
        <translation>所有实时录音都保存在这个文件夹：{folder}</translation>
    </message>
    <message>
        <source>Auto-detect</source>
        <translation>自动检测</translation>
    </message>
    <message>
        <source>Nothing to listen to was found. Plug in a microphone or headset, then press Refresh.</source>
        <translation>没有找到可收听的设备。请插入麦克风或耳机，然后点击“刷新”。</translation>
    </message>
    <message>
        <source>What this computer plays ({device})</source>
        <translation>本机正在播放的声音（{device}）</translation>
    </message>
    <message>
        <source>Choose “What this computer plays” to caption a call or a video playing on this computer.</source>
        <translation>选择“本机正在播放的声音”，可为本机上的通话或视频生成字幕。</translation>
    </message>
    <message>
        <source>{device} (default)</source>
        <translation>{device}（默认）</translation>
    </message>
    <message>
        <source>This source captions what plays on this computer (a call, a video), not a microphone.</source>
        <translation>此来源为本机正在播放的声音（通话、视频）生成字幕，而不是麦克风。</translation>
    </message>
    <message>
        <source>Stopping: captioning the last words…</source>
        <translation>正在停止：正在为最后几句话生成字幕…</translation>
    </message>
    <message>
        <source>the recordings folder</source>
        <translation>录音文件夹</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Start live captions</source>
        <translation>开始实时字幕</translation>
    </message>
    <message>
        <source>Live captions need the model; start again to download it.</source>
        <translation>实时字幕需要这个模型；请再次点击开始以下载它。</translation>
    </message>
    <message>
        <source>The model was downloaded.</source>
        <translation>模型已下载。</translation>
    </message>
    <message>
        <source>Listening. The recording is kept in “{path}”.</source>
        <translation>正在收听。录音保存在“{path}”。</translation>
    </message>
    <message>
        <source>The recording was added to the list and is transcribed again in full quality; correct and export it there.</source>
        <translation>录音已加入列表，并将以完整质量重新转写；请在列表中校对和导出。</translation>
    </message>
    <message>
        <source>Nothing was recorded.</source>
        <translation>没有录到任何内容。</translation>
    </message>
</context>
<context>
    <name>LiveRecordings</name>
    <message>
        <source>Recordings</source>
        <translation>录音</translation>
    </message>
</context>
<context>
    <name>LiveSession</name>
    <message>
        <source>The input device was disconnected, so live captions stopped. Everything recorded until then has been kept.</source>
        <translation>输入设备已断开，实时字幕已停止。此前录下的内容已全部保留。</translation>
    </message>
    <message>
        <source>“{name}” went away (unplugged or switched off), so live captions stopped rather than go on listening to another input. Everything recorded until then has been kept.</source>
        <translation>“{name}”已断开（被拔出或关闭），因此实时字幕已停止，而不是改为收听另一个输入。此前录下的内容已全部保留。</translation>
    </message>
    <message>
        <source>Live captions stopped working ({reason}). The recording goes on and is kept; stop it, and it is transcribed in full.</source>
        <translation>实时字幕已停止工作（{reason}）。录音仍在继续并会保留；停止后将对整段录音进行完整转写。</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Synthesize</source>
        <translation>语音合成</translation>
    </message>
    <message>
        <source>Clone</source>
        <translation>声音克隆</translation>
    </message>
    <message>
        <source>Transcribe</source>
        <translation>转写</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Add files…</source>
        <translation>添加文件(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Import model…</source>
        <translation>导入模型(&amp;I)…</translation>
    </message>
    <message>
        <source>Open &amp;subtitles…</source>
        <translation>打开字幕(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Export…</source>
        <translation>导出(&amp;E)…</translation>
    </message>
    <message>
        <source>Export a&amp;ll</source>
        <translation>全部导出(&amp;L)</translation>
    </message>
    <message>
        <source>Export &amp;video with subtitles…</source>
        <translation>导出带字幕的视频(&amp;V)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Settings</source>
        <translation>设置(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Tools</source>
        <translation>工具(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Check for a VoxDesk watermark…</source>
        <translation>检查 VoxDesk 水印(&amp;C)…</translation>
    </message>
    <message>
        <source>&amp;Measure this computer…</source>
        <translation>测量本机速度(&amp;M)…</translation>
    </message>
    <message>
        <source>&amp;Glossaries…</source>
        <translation>术语表(&amp;G)…</translation>
    </message>
    <message>
        <source>&amp;Known voices…</source>
        <translation>已知声音(&amp;K)…</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;User guide</source>
        <translation>使用指南(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Doctor: check this computer…</source>
        <translation>诊断：检查这台电脑(&amp;D)…</translation>
    </message>
    <message>
        <source>&amp;About VoxDesk</source>
        <translation>关于 VoxDesk(&amp;A)</translation>
    </message>
    <message>
        <source>“{job}”: {error} VoxDesk continued on this computer. {fix}</source>
        <translation>“{job}”：{error}VoxDesk 已在本机继续。{fix}</translation>
    </message>
    <message>
        <source>The GPU failed on “{job}”, so VoxDesk continued on the CPU. {fix}</source>
        <translation>处理“{job}”时 GPU 出错，VoxDesk 已改用 CPU 继续。{fix}</translation>
    </message>
    <message>
        <source>Export the transcript to</source>
        <translation>将转写文本导出到</translation>
    </message>
    <message>
        <source>The model “{name}” was imported and is now chosen.</source>
        <translation>模型“{name}”已导入并选用。</translation>
    </message>
    <message>
        <source>The GPU compatibility version takes effect the next time VoxDesk starts.</source>
        <translation>GPU 兼容版本将在 VoxDesk 下次启动时生效。</translation>
    </message>
    <message>
        <source>These transcripts changed since you exported them:</source>
        <translation>以下转写稿在您导出之后又有改动：</translation>
    </message>
    <message>
        <source>They stay saved in VoxDesk.</source>
        <translation>这些改动仍保存在 VoxDesk 中。</translation>
    </message>
    <message>
        <source>Close anyway</source>
        <translation>仍然关闭</translation>
    </message>
</context>
<context>
    <name>MeasureComputerDialog</name>
    <message>
        <source>Measure this computer</source>
        <translation>测量本机速度</translation>
    </message>
    <message>
        <source>VoxDesk transcribes 10 seconds of speech with each model on this computer, with each engine and device it can use, so the model list can say how fast each model runs here. This takes from a few seconds to a few minutes; you can keep working meanwhile.</source>
        <translation>VoxDesk 会用本机上的每个模型、以它能使用的每种引擎和设备转写一段 10 秒的语音，这样模型列表就能显示每个模型在本机的运行速度。这需要几秒到几分钟，期间您可以继续工作。</translation>
    </message>
    <message>
        <source>Measure again</source>
        <translation>重新测量</translation>
    </message>
    <message>
        <source>graphics card</source>
        <translation>显卡</translation>
    </message>
    <message>
        <source>processor</source>
        <translation>处理器</translation>
    </message>
    <message>
        <source>{model} on the {where} ({engine}): {speed}</source>
        <translation>{model}，{where}（{engine}）：{speed}</translation>
    </message>
    <message>
        <source>Measuring…</source>
        <translation>正在测量…</translation>
    </message>
    <message>
        <source>Done. The model list now shows these speeds.</source>
        <translation>完成。模型列表现在会显示这些速度。</translation>
    </message>
    <message>
        <source>No model is on this computer yet: transcribe a file, or import a model (File → Import model…), then measure again.</source>
        <translation>本机还没有任何模型：请先转写一个文件，或导入一个模型（文件 → 导入模型…），然后重新测量。</translation>
    </message>
</context>
<context>
    <name>ModelAdvice</name>
    <message>
        <source>Fast</source>
        <translation>快速</translation>
    </message>
    <message>
        <source>Balanced</source>
        <translation>均衡</translation>
    </message>
    <message>
        <source>Accurate</source>
        <translation>准确</translation>
    </message>
    <message>
        <source>Imported</source>
        <translation>已导入</translation>
    </message>
    <message>
        <source>For Chinese, the “small” model or a larger one gives much better text than tiny or base.</source>
        <translation>转写中文时，“small”或更大的模型比 tiny 和 base 准确得多。</translation>
    </message>
    <message>
        <source>English only</source>
        <translation>仅英语</translation>
    </message>
    <message>
        <source>99 languages</source>
        <translation>99 种语言</translation>
    </message>
    <message>
        <source>{size} GB</source>
        <translation>{size} GB</translation>
    </message>
    <message>
        <source>{size} MB</source>
        <translation>{size} MB</translation>
    </message>
    <message>
        <source>an hour of recording takes less than a minute here</source>
        <translation>在本机转写一小时的录音不到一分钟</translation>
    </message>
    <message>
        <source>an hour of recording takes about a minute here</source>
        <translation>在本机转写一小时的录音约需一分钟</translation>
    </message>
    <message>
        <source>an hour of recording takes about {minutes} minutes here</source>
        <translation>在本机转写一小时的录音约需 {minutes} 分钟</translation>
    </message>
    <message>
        <source>an hour of recording takes about {hours} hours here</source>
        <translation>在本机转写一小时的录音约需 {hours} 小时</translation>
    </message>
    <message>
        <source>Suggested for this computer: base, quick on the processor.</source>
        <translation>建议本机使用：base，在处理器上速度快。</translation>
    </message>
    <message>
        <source>Suggested for this computer: turbo (large-v3-turbo), the most accurate model at a good speed on a GPU with {memory:.0f} GB.</source>
        <translation>建议本机使用：turbo（large-v3-turbo），在 {memory:.0f} GB 显存的 GPU 上速度良好且最准确。</translation>
    </message>
    <message>
        <source>Suggested for this computer: {model}, since the GPU has {memory:.0f} GB (turbo needs about 16 GB to run well).</source>
        <translation>建议本机使用：{model}，因为 GPU 只有 {memory:.0f} GB 显存（turbo 约需 16 GB 才能流畅运行）。</translation>
    </message>
    <message>
        <source>Suggested for this computer: base.</source>
        <translation>建议本机使用：base。</translation>
    </message>
</context>
<context>
    <name>ModelFiles</name>
    <message>
        <source>“{file}” contains program code as well as model data, so VoxDesk refused it to keep this computer safe.</source>
        <translation>“{file}”除了模型数据还含有程序代码，为保护这台电脑，VoxDesk 拒绝使用它。</translation>
    </message>
    <message>
        <source>The file “{file}” of the model “{model}” contains program code as well as model data, so VoxDesk refused it to keep this computer safe.</source>
        <translation>模型“{model}”的文件“{file}”除了模型数据还含有程序代码，为保护这台电脑，VoxDesk 拒绝使用它。</translation>
    </message>
    <message>
        <source>VoxDesk cannot read the model “{model}”. Check that it is still there and that you may read it.</source>
        <translation>VoxDesk 无法读取模型“{model}”。请确认它仍然存在，并且您有读取权限。</translation>
    </message>
    <message>
        <source>The folder {folder} does not exist. Choose the folder that holds the model files.</source>
        <translation>文件夹 {folder} 不存在。请选择存放模型文件的文件夹。</translation>
    </message>
    <message>
        <source>The statistics file “{file}” holds program code or something other than numbers, so VoxDesk refused it to keep this computer safe.</source>
        <translation>统计文件“{file}”含有程序代码或非数字内容，为保护这台电脑，VoxDesk 拒绝使用它。</translation>
    </message>
    <message>
        <source>The config.json of “{model}” names {file} ({field}), which is not a file in the model&apos;s folder. Put that file in the folder, or remove it from config.json.</source>
        <translation>“{model}”的 config.json 引用了 {file}（{field}），但它不是模型文件夹中的文件。请把该文件放进文件夹，或从 config.json 中删除这一项。</translation>
    </message>
</context>
<context>
    <name>ModelOrigin</name>
    <message>
        <source>Not verified: this model was downloaded from {source}, and VoxDesk has no official checksum for it, so it cannot tell whether these are the publisher&apos;s own files. Your IT department can confirm that their mirror serves the publisher&apos;s files, or give you an official copy to import.</source>
        <translation>未经核验：此模型下载自 {source}，VoxDesk 没有它的官方校验和，因此无法判断这些文件是否为发布者的原始文件。您的 IT 部门可以确认其镜像提供的是发布者的文件，或为您提供一份官方副本以供导入。</translation>
    </message>
</context>
<context>
    <name>ModelPicker</name>
    <message>
        <source>Model:</source>
        <translation>模型：</translation>
    </message>
    <message>
        <source>The voice model. It is downloaded the first time it is used.</source>
        <translation>语音模型。首次使用时会自动下载。</translation>
    </message>
    <message>
        <source>Import model folder…</source>
        <translation>导入模型文件夹…</translation>
    </message>
    <message>
        <source>Use a voice model folder copied to this computer: a Coqui model (model file, config.json and any speaker files) or a Piper voice (its .onnx and .onnx.json).</source>
        <translation>使用复制到这台电脑上的语音模型文件夹：Coqui 模型（模型文件、config.json 及说话人文件）或 Piper 语音（它的 .onnx 和 .onnx.json）。</translation>
    </message>
    <message>
        <source>Language:</source>
        <translation>语言：</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>The language of the text. Automatic lets a multilingual model choose per sentence.</source>
        <translation>文字的语言。选择“自动”时，多语言模型会逐句判断。</translation>
    </message>
    <message>
        <source>Speed:</source>
        <translation>语速：</translation>
    </message>
    <message>
        <source>Use the GPU for speech (experimental)</source>
        <translation>用 GPU 合成语音（实验性）</translation>
    </message>
    <message>
        <source>Speech runs well on the CPU. On the GPU it may be faster or slower; if the GPU fails, VoxDesk continues on the CPU.</source>
        <translation>语音合成在 CPU 上就能很好地运行。在 GPU 上可能更快也可能更慢；如果 GPU 出错，VoxDesk 会改用 CPU 继续。</translation>
    </message>
    <message>
        <source>More voices…</source>
        <translation>更多语音…</translation>
    </message>
    <message>
        <source>{languages} · {title}</source>
        <translation>{languages} · {title}</translation>
    </message>
    <message>
        <source>✓ {name}</source>
        <translation>✓ {name}</translation>
    </message>
    <message>
        <source>{name} — download only, no connection now</source>
        <translation>{name} — 需要下载，现在无法连接网络</translation>
    </message>
    <message>
        <source>{name} — needs a download</source>
        <translation>{name} — 需要下载</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source> and {count} more</source>
        <translation>，另有 {count} 种</translation>
    </message>
    <message>
        <source>about {size} MB</source>
        <translation>约 {size} MB</translation>
    </message>
    <message>
        <source>size not known</source>
        <translation>大小未知</translation>
    </message>
    <message>
        <source>on this computer</source>
        <translation>已在本机</translation>
    </message>
    <message>
        <source>needs a download, and the download server cannot be reached now</source>
        <translation>需要下载，但现在无法连接下载服务器</translation>
    </message>
    <message>
        <source>downloaded when first used</source>
        <translation>首次使用时下载</translation>
    </message>
    <message>
        <source>{languages} · {size} · licence: {licence} · {where}</source>
        <translation>{languages} · {size} · 许可协议：{licence} · {where}</translation>
    </message>
    <message>
        <source>{percent}%</source>
        <translation>{percent}%</translation>
    </message>
    <message>
        <source>Choose a voice model folder (Coqui or Piper)</source>
        <translation>选择语音模型文件夹（Coqui 或 Piper）</translation>
    </message>
    <message>
        <source>suggested here</source>
        <translation>本机推荐</translation>
    </message>
</context>
<context>
    <name>Models</name>
    <message>
        <source>The download server offered a different file than expected for {label}; please try again later.</source>
        <translation>下载服务器为{label}提供的文件与预期不符；请稍后重试。</translation>
    </message>
    <message>
        <source>The download of {label} stopped before it was complete; check the internet connection and try again to continue where it stopped.</source>
        <translation>{label}的下载未完成就中断了；请检查网络连接，然后重试，下载会从中断处继续。</translation>
    </message>
    <message>
        <source>the model list</source>
        <translation>模型列表</translation>
    </message>
    <message>
        <source>VoxDesk could not reach the download server. Check the internet connection, or choose another download source in Settings → Downloads. Without internet, use File → Import model…, or ask your IT department for the shared model folder.</source>
        <translation>VoxDesk 无法连接下载服务器。请检查网络连接，或在“设置 → 下载”中选择其他下载来源。没有网络时，请使用“文件 → 导入模型…”，或向 IT 部门索取共享模型文件夹。</translation>
    </message>
    <message>
        <source>The download server&apos;s certificate is not trusted by this computer, so VoxDesk did not download from it. If your company checks secure connections, ask your IT department to install its root certificate on this computer; or choose another download source in Settings → Downloads.</source>
        <translation>这台电脑不信任下载服务器的证书，因此 VoxDesk 没有从它下载。如果贵公司会检查加密连接，请让 IT 部门在这台电脑上安装公司的根证书；或在“设置 → 下载”中选择其他下载来源。</translation>
    </message>
    <message>
        <source>The download server did not answer within {seconds} seconds. Check the internet connection and try again, or choose another download source in Settings → Downloads.</source>
        <translation>下载服务器在 {seconds} 秒内没有响应。请检查网络连接后重试，或在“设置 → 下载”中选择其他下载来源。</translation>
    </message>
    <message>
        <source>The download of {label} stayed slower than {rate} a second, so VoxDesk stopped it; what arrived is kept, and the next try continues from there. Check the internet connection, or choose another download source in Settings → Downloads.</source>
        <translation>{label}的下载速度一直低于每秒 {rate}，因此 VoxDesk 停止了下载；已收到的部分会保留，下次重试时从那里继续。请检查网络连接，或在“设置 → 下载”中选择其他下载来源。</translation>
    </message>
    <message>
        <source>{problem} Check the download source&apos;s address in Settings → Downloads, or choose another download source there.</source>
        <translation>{problem}请在“设置 → 下载”中核对下载来源的地址，或在那里选择其他下载来源。</translation>
    </message>
    <message>
        <source>The download server listed a file under a name VoxDesk does not accept, so VoxDesk did not download from it. Please try again later, or choose another download source in Settings → Downloads.</source>
        <translation>下载服务器列出的文件名 VoxDesk 无法接受，因此 VoxDesk 没有从它下载。请稍后重试，或在“设置 → 下载”中选择其他下载来源。</translation>
    </message>
    <message>
        <source>The download server sent more than {label} can hold, so VoxDesk stopped and deleted the download; please try again later, or choose another download source in Settings → Downloads.</source>
        <translation>下载服务器发送的内容超出了{label}应有的大小，因此 VoxDesk 停止并删除了这次下载；请稍后重试，或在“设置 → 下载”中选择其他下载来源。</translation>
    </message>
    <message>
        <source>The download server sent an answer VoxDesk does not understand; please try again later.</source>
        <translation>下载服务器返回了 VoxDesk 无法识别的内容；请稍后重试。</translation>
    </message>
    <message>
        <source>The download of {label} was damaged on the way, so VoxDesk deleted it; please try again.</source>
        <translation>{label}在下载过程中损坏，VoxDesk 已将其删除；请重试。</translation>
    </message>
    <message>
        <source>The download server no longer offers {label}, so check for a VoxDesk update or import the model from a file.</source>
        <translation>下载服务器已不再提供{label}；请检查 VoxDesk 是否有更新，或从文件导入模型。</translation>
    </message>
    <message>
        <source>The download server refused to send {label} (error {code}); please try again later.</source>
        <translation>下载服务器拒绝发送{label}（错误 {code}）；请稍后重试。</translation>
    </message>
    <message>
        <source>the &quot;{name}&quot; model</source>
        <translation>“{name}”模型</translation>
    </message>
    <message>
        <source>The download server does not have all the files of {label}; please try again later.</source>
        <translation>下载服务器上{label}的文件不全；请稍后重试。</translation>
    </message>
    <message>
        <source>VoxDesk cannot find &quot;{source}&quot;; check that the file or folder is still there.</source>
        <translation>VoxDesk 找不到“{source}”；请确认该文件或文件夹仍然存在。</translation>
    </message>
    <message>
        <source>The shared model folder has the {model} model, but “{file}” in it is {problem}, so VoxDesk cannot use it, and downloading the model failed too. Ask your IT department to copy the model into {folder} again; or use File → Import model… with a good copy.</source>
        <translation>共享模型文件夹中有 {model} 模型，但其中的“{file}”{problem}，因此 VoxDesk 无法使用它，而下载该模型也失败了。请让 IT 部门把该模型重新复制到 {folder}；或者用“文件 → 导入模型…”导入一份完好的副本。</translation>
    </message>
    <message>
        <source>the model &quot;{name}&quot;</source>
        <translation>模型“{name}”</translation>
    </message>
    <message>
        <source>&quot;{name}&quot; is a model you imported, so there is nothing to download for it.</source>
        <translation>“{name}”是您导入的模型，无需下载。</translation>
    </message>
    <message>
        <source>There is no Whisper model called &quot;{name}&quot;; choose one from the model list.</source>
        <translation>没有名为“{name}”的 Whisper 模型；请从模型列表中选择。</translation>
    </message>
    <message>
        <source>&quot;{name}&quot; cannot be used as a model name; use letters, digits, spaces, dots, dashes or underscores, starting with a letter or digit.</source>
        <translation>“{name}”不能用作模型名称；请使用字母、数字、空格、点、连字符或下划线，并以字母或数字开头。</translation>
    </message>
    <message>
        <source>The download server offers a different file than the official one for {label}, so VoxDesk did not download it. Choose another download source in Settings → Downloads.</source>
        <translation>下载服务器提供的{label}文件与官方文件不同，因此 VoxDesk 没有下载。请在“设置 → 下载”中选择其他下载来源。</translation>
    </message>
    <message>
        <source>&quot;{shown}&quot; is not an openai-whisper model file; choose a Whisper .pt checkpoint or a CTranslate2 folder.</source>
        <translation>“{shown}”不是 openai-whisper 模型文件；请选择 Whisper 的 .pt 文件或 CTranslate2 文件夹。</translation>
    </message>
    <message>
        <source>&quot;{shown}&quot; contains program code as well as model data, so VoxDesk refused to open it to keep this computer safe.</source>
        <translation>“{shown}”除了模型数据还包含程序代码，为保护这台电脑的安全，VoxDesk 拒绝打开它。</translation>
    </message>
    <message>
        <source>VoxDesk could not read &quot;{shown}&quot;; check that the file is still there.</source>
        <translation>VoxDesk 无法读取“{shown}”；请确认该文件仍然存在。</translation>
    </message>
    <message>
        <source>&quot;{shown}&quot; is not a copy of the official &quot;{name}&quot; model, so it cannot take that name; import it under another name.</source>
        <translation>“{shown}”不是官方“{name}”模型的副本，不能使用这个名称；请用其他名称导入。</translation>
    </message>
    <message>
        <source>VoxDesk could not read the folder &quot;{shown}&quot;; check that it is still there.</source>
        <translation>VoxDesk 无法读取文件夹“{shown}”；请确认它仍然存在。</translation>
    </message>
    <message>
        <source>a tokenizer.json or vocabulary file</source>
        <translation>tokenizer.json 或词表文件</translation>
    </message>
    <message>
        <source>{absent} and no {name}</source>
        <translation>{absent}，也没有 {name}</translation>
    </message>
    <message>
        <source>The folder &quot;{shown}&quot; is not a complete CTranslate2 Whisper model: it has no {absent}.</source>
        <translation>文件夹“{shown}”不是完整的 CTranslate2 Whisper 模型：其中没有 {absent}。</translation>
    </message>
    <message>
        <source>The config.json in &quot;{shown}&quot; is damaged, so VoxDesk cannot use this model.</source>
        <translation>“{shown}”中的 config.json 已损坏，VoxDesk 无法使用这个模型。</translation>
    </message>
    <message>
        <source>The model.bin in &quot;{shown}&quot; is not a CTranslate2 model file, so VoxDesk cannot use this folder.</source>
        <translation>“{shown}”中的 model.bin 不是 CTranslate2 模型文件，VoxDesk 无法使用这个文件夹。</translation>
    </message>
    <message>
        <source>The folder &quot;{shown}&quot; holds a CTranslate2 model for something other than speech recognition, so VoxDesk cannot use it.</source>
        <translation>文件夹“{shown}”中的 CTranslate2 模型不是用于语音识别的，VoxDesk 无法使用。</translation>
    </message>
    <message>
        <source>There is already a model called &quot;{name}&quot;; choose another name for the imported model.</source>
        <translation>已经有名为“{name}”的模型；请为导入的模型另取一个名称。</translation>
    </message>
    <message>
        <source>empty</source>
        <translation>是空的</translation>
    </message>
    <message>
        <source>missing</source>
        <translation>缺失</translation>
    </message>
</context>
<context>
    <name>OptionsBar</name>
    <message>
        <source>Larger models are more accurate and slower. A model is downloaded the first time it is used.</source>
        <translation>模型越大越准确，但也越慢。模型在首次使用时下载。</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>模型：</translation>
    </message>
    <message>
        <source>Language:</source>
        <translation>语言：</translation>
    </message>
    <message>
        <source>Task:</source>
        <translation>任务：</translation>
    </message>
    <message>
        <source>Initial prompt:</source>
        <translation>提示词：</translation>
    </message>
    <message>
        <source>Auto-detect</source>
        <translation>自动检测</translation>
    </message>
    <message>
        <source>Transcribe</source>
        <translation>转写</translation>
    </message>
    <message>
        <source>Translate to English</source>
        <translation>翻译成英文</translation>
    </message>
    <message>
        <source>Optional: names or terms, spelled as you want them</source>
        <translation>可选：人名或术语，按您希望的写法填写</translation>
    </message>
    <message>
        <source>Label speakers:</source>
        <translation>标注说话人：</translation>
    </message>
    <message>
        <source>Not on this computer, and the download server cannot be reached now. File → Import model… brings in a copy.</source>
        <translation>不在这台电脑上，现在也无法连接下载服务器。可用“文件 → 导入模型…”导入一份副本。</translation>
    </message>
    <message>
        <source>{name} ({size} MB) — download only, no connection now</source>
        <translation>{name}（{size} MB）— 需要下载，现在无法连接网络</translation>
    </message>
    <message>
        <source>{name} (imported)</source>
        <translation>{name}（已导入）</translation>
    </message>
    <message>
        <source>{name} (shared folder)</source>
        <translation>{name}（共享文件夹）</translation>
    </message>
    <message>
        <source>{name} (not verified)</source>
        <translation>{name}（未经核验）</translation>
    </message>
    <message>
        <source>✓ {name}</source>
        <translation>✓ {name}</translation>
    </message>
    <message>
        <source>{name} ({size} MB download)</source>
        <translation>{name}（需下载 {size} MB）</translation>
    </message>
</context>
<context>
    <name>PiperVoices</name>
    <message>
        <source>Fine-tuned from the lessac voice, whose recordings were released for non-commercial research only.</source>
        <translation>由 lessac 语音微调而来；lessac 的录音仅允许用于非商业研究。</translation>
    </message>
    <message>
        <source>research only</source>
        <translation>仅限研究</translation>
    </message>
    <message>
        <source>Recorded for the Blizzard Challenge 2013; released for non-commercial research only.</source>
        <translation>为 2013 年 Blizzard Challenge 录制；仅允许用于非商业研究。</translation>
    </message>
    <message>
        <source>see its model card</source>
        <translation>见其模型说明文件</translation>
    </message>
    <message>
        <source>{name} is neither a Piper voice (.onnx) nor a folder. Choose the voice&apos;s .onnx file or the folder that holds it.</source>
        <translation>{name} 既不是 Piper 语音（.onnx），也不是文件夹。请选择语音的 .onnx 文件或存放它的文件夹。</translation>
    </message>
    <message>
        <source>The folder “{name}” should hold one Piper voice (one .onnx file with its .onnx.json), but it holds {count}. Keep one voice per folder.</source>
        <translation>文件夹“{name}”应只包含一个 Piper 语音（一个 .onnx 文件及其 .onnx.json），但其中有 {count} 个。请每个文件夹只放一个语音。</translation>
    </message>
    <message>
        <source>The Piper voice “{name}” has no {file} beside it. Copy the voice&apos;s .onnx file together with its .onnx.json.</source>
        <translation>Piper 语音“{name}”旁边没有 {file}。请把语音的 .onnx 文件和它的 .onnx.json 一起复制过来。</translation>
    </message>
    <message>
        <source>The file {file} is {size} MB, far larger than any Piper voice, so VoxDesk did not load it. Copy the voice again from its source.</source>
        <translation>文件 {file} 有 {size} MB，远大于任何 Piper 语音，因此 VoxDesk 没有加载它。请从来源重新复制该语音。</translation>
    </message>
    <message>
        <source>its model file {file} is too small to be a voice</source>
        <translation>它的模型文件 {file} 太小，不可能是语音</translation>
    </message>
    <message>
        <source>its settings file {file} is far larger than any Piper voice&apos;s</source>
        <translation>它的设置文件 {file} 远大于任何 Piper 语音的设置文件</translation>
    </message>
    <message>
        <source>VoxDesk cannot read the Piper voice “{name}”. Check that its files are still there and readable.</source>
        <translation>VoxDesk 无法读取 Piper 语音“{name}”。请检查它的文件是否还在并且可以读取。</translation>
    </message>
    <message>
        <source>its settings file {file} is nested far deeper than any Piper voice&apos;s</source>
        <translation>它的设置文件 {file} 的嵌套层数远超任何 Piper 语音的设置文件</translation>
    </message>
    <message>
        <source>its settings file {file} is not valid JSON</source>
        <translation>它的设置文件 {file} 不是有效的 JSON</translation>
    </message>
    <message>
        <source>its settings file {file} holds no settings</source>
        <translation>它的设置文件 {file} 里没有设置</translation>
    </message>
    <message>
        <source>its settings file {file} has no phoneme map, so VoxDesk cannot turn text into its sounds</source>
        <translation>它的设置文件 {file} 没有音素表，VoxDesk 无法把文字转成它的读音</translation>
    </message>
    <message>
        <source>its settings give {count} as its number of symbols, where a Piper voice has from 1 to {limit}</source>
        <translation>它的设置把符号数写为 {count}，而 Piper 语音的符号数在 1 到 {limit} 之间</translation>
    </message>
    <message>
        <source>the sound “{phoneme}” has no symbol number in its phoneme map</source>
        <translation>音素表中的音“{phoneme}”没有符号编号</translation>
    </message>
    <message>
        <source>the sound “{phoneme}” stands for {count} symbols in its phoneme map, where a Piper voice uses at most {limit}</source>
        <translation>音素表中的音“{phoneme}”对应 {count} 个符号，而 Piper 语音最多使用 {limit} 个</translation>
    </message>
    <message>
        <source>its phoneme map has no pause symbol “_”</source>
        <translation>它的音素表中没有停顿符号“_”</translation>
    </message>
    <message>
        <source>its espeak-ng language “{voice}” is not the name of a language</source>
        <translation>它的 espeak-ng 语言“{voice}”不是语言名称</translation>
    </message>
    <message>
        <source>its sample rate {rate} is not one a voice speaks at (8000 to 48000 Hz)</source>
        <translation>它的采样率 {rate} 不是语音使用的采样率（8000 至 48000 Hz）</translation>
    </message>
    <message>
        <source>its list of speakers does not match its number of speakers</source>
        <translation>它的说话人列表与说话人数量不符</translation>
    </message>
    <message>
        <source>the sound “{phoneme}” stands for symbol {symbol}, but its model has only {count} symbols</source>
        <translation>音“{phoneme}”对应符号 {symbol}，但它的模型只有 {count} 个符号</translation>
    </message>
    <message>
        <source>the sound “{phoneme}” stands for symbol {symbol}, but its settings give only {count} symbols</source>
        <translation>音“{phoneme}”对应符号 {symbol}，但它的设置只有 {count} 个符号</translation>
    </message>
    <message>
        <source>its setting {setting} is {value}, outside 0 to 10</source>
        <translation>它的设置 {setting} 为 {value}，超出 0 到 10 的范围</translation>
    </message>
    <message>
        <source>The settings file {file} names {path} ({field}), which is outside the voice&apos;s folder, so VoxDesk refused the voice. Use the voice&apos;s own .onnx.json.</source>
        <translation>设置文件 {file} 指向 {path}（{field}），它不在语音的文件夹内，因此 VoxDesk 拒绝了该语音。请使用该语音自带的 .onnx.json。</translation>
    </message>
    <message>
        <source>The Piper voice “{name}” is damaged: {problem}. Copy or download the voice again from its source.</source>
        <translation>Piper 语音“{name}”已损坏：{problem}。请从来源重新复制或下载该语音。</translation>
    </message>
    <message>
        <source>its model file is not an ONNX model</source>
        <translation>它的模型文件不是 ONNX 模型</translation>
    </message>
    <message>
        <source>The download of “{title}” was damaged on the way ({file} does not match the official checksum), so VoxDesk deleted it; please try again.</source>
        <translation>“{title}”的下载在传输中损坏（{file} 与官方校验值不符），VoxDesk 已将其删除；请重试。</translation>
    </message>
    <message>
        <source>The file {file} is far larger than any Piper voice, so VoxDesk did not load it.</source>
        <translation>文件 {file} 远大于任何 Piper 语音，因此 VoxDesk 没有加载它。</translation>
    </message>
    <message>
        <source>its model failed on the sounds of this text</source>
        <translation>它的模型无法处理这段文字的读音</translation>
    </message>
    <message>
        <source>its model file {file} cannot be run</source>
        <translation>它的模型文件 {file} 无法运行</translation>
    </message>
    <message>
        <source>its model file {file} does not take the inputs of a Piper voice</source>
        <translation>它的模型文件 {file} 不接受 Piper 语音的输入</translation>
    </message>
</context>
<context>
    <name>PlaybackBar</name>
    <message>
        <source>Replay line</source>
        <translation>重播本行</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop playing</source>
        <translation>停止播放</translation>
    </message>
    <message>
        <source>Play the selected line again, from a second before its start ({key})</source>
        <translation>从所选的行开始前一秒起再播放一遍（{key}）</translation>
    </message>
    <message>
        <source>Set line start to the playing position</source>
        <translation>把行的开始时间设为播放位置</translation>
    </message>
    <message>
        <source>Set line end to the playing position</source>
        <translation>把行的结束时间设为播放位置</translation>
    </message>
    <message>
        <source>S&amp;peed:</source>
        <translation>速度(&amp;P)：</translation>
    </message>
    <message>
        <source>Play slower or faster; the voices keep their pitch.</source>
        <translation>放慢或加快播放；声音的音调不变。</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Playing: click to pause ({key})</source>
        <translation>正在播放：点击暂停（{key}）</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>播放</translation>
    </message>
    <message>
        <source>Play the recording from the selected line or where it was paused ({key})</source>
        <translation>从所选的行或暂停处播放录音（{key}）</translation>
    </message>
</context>
<context>
    <name>QAbstractFileIconProvider</name>
    <message>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>Drive</source>
        <translation>驱动器</translation>
    </message>
</context>
<context>
    <name>QFileDialog</name>
    <message>
        <source>&amp;Look in:</source>
        <translation>查找范围(&amp;L)：</translation>
    </message>
    <message>
        <source>Files of &amp;type:</source>
        <translation>文件类型(&amp;T)：</translation>
    </message>
</context>
<context>
    <name>QFileSystemModel</name>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
</context>
<context>
    <name>QueueModel</name>
    <message>
        <source>Reading the file</source>
        <translation>正在读取文件</translation>
    </message>
    <message>
        <source>Loading the model</source>
        <translation>正在加载模型</translation>
    </message>
    <message>
        <source>Listening</source>
        <translation>正在聆听</translation>
    </message>
    <message>
        <source>Writing the transcript</source>
        <translation>正在写出文字稿</translation>
    </message>
    <message>
        <source>Starting</source>
        <translation>正在开始</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Length</source>
        <translation>时长</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>进度</translation>
    </message>
    <message>
        <source>Elapsed</source>
        <translation>已用时间</translation>
    </message>
    <message>
        <source>Time left</source>
        <translation>剩余时间</translation>
    </message>
    <message>
        <source>Waiting: press Start to transcribe it</source>
        <translation>等待中：按“开始”进行转写</translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>正在开始…</translation>
    </message>
    <message>
        <source>Done: no speech found in this file</source>
        <translation>完成：这个文件中没有语音</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>1 stretch of speech could not be transcribed: fill it in below.</source>
        <translation>有 1 段语音未能转写：请在下方补填。</translation>
    </message>
    <message>
        <source>{count} stretches of speech could not be transcribed: fill them in below.</source>
        <translation>有 {count} 段语音未能转写：请在下方补填。</translation>
    </message>
</context>
<context>
    <name>QueuePanel</name>
    <message>
        <source>Add files…</source>
        <translation>添加文件…</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Transcribe the files that were still waiting when VoxDesk closed</source>
        <translation>转写 VoxDesk 关闭时仍在等待的文件</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Cancel all</source>
        <translation>全部取消</translation>
    </message>
    <message>
        <source>Retry failed</source>
        <translation>重试失败项</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Stop the selected files</source>
        <translation>停止所选文件</translation>
    </message>
    <message>
        <source>Take the selected files off the list</source>
        <translation>从列表中移除所选文件</translation>
    </message>
    <message>
        <source>Drop recordings, videos or folders here, or click “Add files…”.</source>
        <translation>把录音、视频或文件夹拖到这里，或点击“添加文件…”。</translation>
    </message>
    <message>
        <source>Add recordings or videos</source>
        <translation>添加录音或视频</translation>
    </message>
    <message>
        <source>Audio and video ({patterns});;All files (*)</source>
        <translation>音频和视频 ({patterns});;所有文件 (*)</translation>
    </message>
    <message>
        <source>No audio or video files were found in “{name}”.</source>
        <translation>在“{name}”中没有找到音频或视频文件。</translation>
    </message>
    <message>
        <source>These files are already in the list.</source>
        <translation>这些文件已在列表中。</translation>
    </message>
</context>
<context>
    <name>RecentTranscriptsMenu</name>
    <message>
        <source>&amp;Recent transcripts</source>
        <translation>最近的文字稿(&amp;R)</translation>
    </message>
    <message>
        <source>No saved transcripts yet</source>
        <translation>还没有保存的文字稿</translation>
    </message>
</context>
<context>
    <name>Recorder</name>
    <message>
        <source>No microphone was found. Plug in a microphone or headset, check that it is switched on, then try again.</source>
        <translation>未找到麦克风。请插入麦克风或耳麦，确认已打开，然后重试。</translation>
    </message>
    <message>
        <source>The microphone was disconnected during the recording. What was recorded until then has been kept.</source>
        <translation>录音过程中麦克风断开了。断开前录下的内容已保留。</translation>
    </message>
    <message>
        <source>The recording stopped by itself after {minutes:.0f} minutes.</source>
        <translation>录音已在 {minutes:.0f} 分钟后自动停止。</translation>
    </message>
    <message>
        <source>The microphone “{name}” could not be opened. It may be unplugged or in use by another program. Plug it in again or choose another input, then try again.</source>
        <translation>无法打开麦克风“{name}”。它可能已拔出或正被其他程序使用。请重新插好或选择其他输入设备，然后重试。</translation>
    </message>
    <message>
        <source>The microphone “{name}” cannot be used: it accepts none of the usual recording settings. Choose another input device.</source>
        <translation>麦克风“{name}”无法使用：它不支持任何常用的录音设置。请选择其他输入设备。</translation>
    </message>
</context>
<context>
    <name>RecorderWidget</name>
    <message>
        <source>The microphone to record from.</source>
        <translation>用于录音的麦克风。</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Look for microphones again, after plugging one in.</source>
        <translation>插入麦克风后重新查找。</translation>
    </message>
    <message>
        <source>Start recording. Press Stop when you have finished reading.</source>
        <translation>开始录音。读完后按“停止”。</translation>
    </message>
    <message>
        <source>Microphone:</source>
        <translation>麦克风：</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Record again</source>
        <translation>重新录音</translation>
    </message>
    <message>
        <source>Record</source>
        <translation>录音</translation>
    </message>
    <message>
        <source>No microphone found</source>
        <translation>未找到麦克风</translation>
    </message>
    <message>
        <source>{device} (default)</source>
        <translation>{device}（默认）</translation>
    </message>
    <message>
        <source>No microphone was found. Plug in a microphone or headset, then press Refresh.</source>
        <translation>未找到麦克风。请插入麦克风或耳麦，然后按“刷新”。</translation>
    </message>
    <message>
        <source>The microphone was disconnected during the recording. What was recorded until then has been kept.</source>
        <translation>录音过程中麦克风断开了。断开前录下的内容已保留。</translation>
    </message>
    <message>
        <source>Too loud: move a little away from the microphone.</source>
        <translation>声音太大：请离麦克风稍远一些。</translation>
    </message>
    <message>
        <source>The recording stopped by itself at {seconds:.0f} seconds, the longest it needs to be.</source>
        <translation>录音已在 {seconds:.0f} 秒时自动停止，样本最长只需这么长。</translation>
    </message>
    <message>
        <source>{time} (at least {shortest:.0f} s, best {low:.0f}–{high:.0f} s)</source>
        <translation>{time}（至少 {shortest:.0f} 秒，最好 {low:.0f}–{high:.0f} 秒）</translation>
    </message>
</context>
<context>
    <name>RememberVoiceDialog</name>
    <message>
        <source>Remember this voice</source>
        <translation>记住这个声音</translation>
    </message>
    <message>
        <source>VoxDesk will recognise {speaker}&apos;s voice in later recordings and name them.</source>
        <translation>VoxDesk 会在以后的录音中认出{speaker}的声音并标上名字。</translation>
    </message>
    <message>
        <source>This person agreed to be recognised by voice in this office&apos;s recordings.</source>
        <translation>此人已同意在本办公室的录音中通过声音被识别。</translation>
    </message>
    <message>
        <source>Remember</source>
        <translation>记住</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <source>Confirmed by:</source>
        <translation>确认人：</translation>
    </message>
</context>
<context>
    <name>RemovePrompt</name>
    <message>
        <source>“{name}” is taken off the list. Keep its saved transcript, so that File → Recent transcripts can open it again, or delete it?</source>
        <translation>将从列表中移除“{name}”。要保留它已保存的文字稿（以便通过“文件 → 最近的文字稿”再次打开），还是删除？</translation>
    </message>
    <message>
        <source>{count} files are taken off the list. Keep their saved transcripts, so that File → Recent transcripts can open them again, or delete them?</source>
        <translation>将从列表中移除 {count} 个文件。要保留它们已保存的文字稿（以便通过“文件 → 最近的文字稿”再次打开），还是删除？</translation>
    </message>
    <message>
        <source>Changed since the last export: {names}.</source>
        <translation>上次导出后有改动的：{names}。</translation>
    </message>
    <message>
        <source>Keep the saved transcripts?</source>
        <translation>保留已保存的文字稿吗？</translation>
    </message>
    <message>
        <source>Keep</source>
        <translation>保留</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
</context>
<context>
    <name>ReplacePrompt</name>
    <message>
        <source>“{name}” already exists in {folder}. Replace it?</source>
        <translation>{folder} 中已有“{name}”。要替换吗？</translation>
    </message>
    <message>
        <source>…and {count} more</source>
        <translation>…另有 {count} 个</translation>
    </message>
    <message>
        <source>These files already exist:
{names}

Replace them?</source>
        <translation>以下文件已存在：
{names}

要替换吗？</translation>
    </message>
    <message>
        <source>Replace existing files?</source>
        <translation>替换已有文件？</translation>
    </message>
    <message>
        <source>Replace</source>
        <translation>替换</translation>
    </message>
    <message>
        <source>Keep the existing files</source>
        <translation>保留原文件</translation>
    </message>
</context>
<context>
    <name>SampleStep</name>
    <message>
        <source>Step 1 of 2: record the voice. Read the text below aloud at your normal pace, then press Stop.</source>
        <translation>第 1 步（共 2 步）：录制声音。请用平常的语速朗读下面的文字，读完后按“停止”。</translation>
    </message>
    <message>
        <source>Read aloud:</source>
        <translation>请朗读：</translation>
    </message>
    <message>
        <source>The sample is good: {seconds:.0f} seconds of clear speech.</source>
        <translation>样本良好：{seconds:.0f} 秒清晰的语音。</translation>
    </message>
    <message>
        <source>This sample cannot be used:</source>
        <translation>这个样本无法使用：</translation>
    </message>
    <message>
        <source>The sample can be used, but:</source>
        <translation>这个样本可以使用，但是：</translation>
    </message>
</context>
<context>
    <name>SavedWork</name>
    <message>
        <source>The recording is no longer at {path}; its saved transcript is still here.</source>
        <translation>录音已不在 {path}；它保存的文字稿仍在这里。</translation>
    </message>
    <message>
        <source>The recording has changed since it was transcribed; the saved transcript is of the earlier one.</source>
        <translation>录音在转写后已被更改；保存的文字稿对应的是之前的录音。</translation>
    </message>
</context>
<context>
    <name>SegmentsModel</name>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>End</source>
        <translation>结束</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>文字</translation>
    </message>
    <message>
        <source>Speaker</source>
        <translation>说话人</translation>
    </message>
    <message>
        <source>“{term}”: heard as “{original}”; corrected by the glossary</source>
        <translation>“{term}”：听成了“{original}”，已由术语表更正</translation>
    </message>
    <message>
        <source>{name}: recognised as a known voice, {sure:.0%} sure</source>
        <translation>{name}：已识别为已知声音，把握 {sure:.0%}</translation>
    </message>
    <message>
        <source>{gap} — type what was said</source>
        <translation>{gap} — 请输入所说的内容</translation>
    </message>
    <message>
        <source>Type a time like 00:01:02.500.</source>
        <translation>请按 00:01:02.500 这样的格式输入时间。</translation>
    </message>
</context>
<context>
    <name>Server</name>
    <message>
        <source>Enter the address of the transcription server, for example http://gpu-server:8000.</source>
        <translation>请输入转写服务器的地址，例如 http://gpu-server:8000。</translation>
    </message>
    <message>
        <source>“{address}” is not a server address; write it like http://gpu-server:8000 or https://asr.example.org.</source>
        <translation>“{address}”不是服务器地址；请写成 http://gpu-server:8000 或 https://asr.example.org 这样的形式。</translation>
    </message>
    <message>
        <source>VoxDesk cannot read or save the server&apos;s API key in {folder}. Check that the folder is yours and writable, then try again.</source>
        <translation>VoxDesk 无法在 {folder} 中读取或保存服务器的 API 密钥。请确认该文件夹属于您且可写入，然后重试。</translation>
    </message>
    <message>
        <source>The server at {host} sends VoxDesk to another address.</source>
        <translation>{host} 上的服务器把 VoxDesk 转到了另一个地址。</translation>
    </message>
    <message>
        <source>Ask IT for the address of the transcription server and check it in Settings → Transcription server.</source>
        <translation>请向 IT 部门索取转写服务器的地址，并在“设置 → 转写服务器”中核对。</translation>
    </message>
    <message>
        <source>The transcription server at {host} refused the API key.</source>
        <translation>{host} 上的转写服务器拒绝了 API 密钥。</translation>
    </message>
    <message>
        <source>Enter the API key IT gave you in Settings → Transcription server (on the command line: VOXDESK_SERVER_KEY).</source>
        <translation>请在“设置 → 转写服务器”中输入 IT 部门提供的 API 密钥（命令行中使用 VOXDESK_SERVER_KEY）。</translation>
    </message>
    <message>
        <source>There is no Whisper server (OpenAI audio API) at {host}.</source>
        <translation>{host} 上没有 Whisper 服务器（OpenAI 音频 API）。</translation>
    </message>
    <message>
        <source>Check the server address in Settings → Transcription server; ask IT for it.</source>
        <translation>请检查“设置 → 转写服务器”中的服务器地址；可向 IT 部门索取。</translation>
    </message>
    <message>
        <source>The transcription server at {host} is failing or overloaded (error {status}).</source>
        <translation>{host} 上的转写服务器出错或负载过高（错误 {status}）。</translation>
    </message>
    <message>
        <source>Try again later, or tell IT: the server&apos;s log says why.</source>
        <translation>请稍后重试，或告知 IT 部门：服务器日志中有原因。</translation>
    </message>
    <message>
        <source>The transcription server at {host} refused the request: {reason}</source>
        <translation>{host} 上的转写服务器拒绝了请求：{reason}</translation>
    </message>
    <message>
        <source>Check the model name in Settings → Transcription server; Test connection shows the models the server has.</source>
        <translation>请检查“设置 → 转写服务器”中的模型名称；“测试连接”会列出服务器上的模型。</translation>
    </message>
    <message>
        <source>The transcription server at {host} cannot be reached.</source>
        <translation>无法连接到 {host} 上的转写服务器。</translation>
    </message>
    <message>
        <source>Check that the server is running and that this computer can reach it (network, VPN); the address is in Settings → Transcription server.</source>
        <translation>请确认服务器正在运行，且本机能访问它（网络、VPN）；地址在“设置 → 转写服务器”中。</translation>
    </message>
    <message>
        <source>Correct the address in Settings → Transcription server, or ask IT for it.</source>
        <translation>请在“设置 → 转写服务器”中更正地址，或向 IT 部门索取地址。</translation>
    </message>
    <message>
        <source>The certificate of the transcription server at {host} is not trusted by this computer, so VoxDesk did not send anything to it.</source>
        <translation>这台电脑不信任 {host} 上转写服务器的证书，因此 VoxDesk 没有向它发送任何内容。</translation>
    </message>
    <message>
        <source>If your company uses its own certificates, ask your IT department to install its root certificate on this computer.</source>
        <translation>如果贵公司使用自己的证书，请让 IT 部门在这台电脑上安装公司的根证书。</translation>
    </message>
    <message>
        <source>The server at {host} sent a far longer answer than any transcription of this piece, so VoxDesk stopped reading it.</source>
        <translation>{host} 上的服务器返回的内容远远超过这一段音频可能的转写长度，因此 VoxDesk 停止了读取。</translation>
    </message>
    <message>
        <source>Check that the address in Settings → Transcription server points to a Whisper server (OpenAI audio API); if it does, tell IT.</source>
        <translation>请确认“设置 → 转写服务器”中的地址指向 Whisper 服务器（OpenAI 音频接口）；如果确实如此，请告知 IT 部门。</translation>
    </message>
    <message>
        <source>The transcription server at {host} did not answer within {seconds} seconds.</source>
        <translation>{host} 上的转写服务器在 {seconds} 秒内没有响应。</translation>
    </message>
    <message>
        <source>The server may be overloaded; try again later, or tell IT.</source>
        <translation>服务器可能负载过高；请稍后重试，或告知 IT 部门。</translation>
    </message>
    <message>
        <source>The server at {host} answered with something that is not a transcription.</source>
        <translation>{host} 上的服务器返回的内容不是转写结果。</translation>
    </message>
    <message>
        <source>Check that the address in Settings → Transcription server points to a Whisper server (OpenAI audio API), not a web page or proxy.</source>
        <translation>请确认“设置 → 转写服务器”中的地址指向 Whisper 服务器（OpenAI 音频 API），而不是网页或代理。</translation>
    </message>
    <message>
        <source>{problem} {fix}</source>
        <translation>{problem}{fix}</translation>
    </message>
</context>
<context>
    <name>ServerSettingsBox</name>
    <message>
        <source>Transcription server</source>
        <translation>转写服务器</translation>
    </message>
    <message>
        <source>Send recordings to the office&apos;s Whisper server (for example vLLM on a GPU machine) instead of transcribing them on this computer.</source>
        <translation>将录音发送到办公室的 Whisper 服务器（例如运行在 GPU 机器上的 vLLM）转写，而不是在本机转写。</translation>
    </message>
    <message>
        <source>Address:</source>
        <translation>地址：</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>模型：</translation>
    </message>
    <message>
        <source>The server&apos;s own (leave empty)</source>
        <translation>使用服务器自带的（留空）</translation>
    </message>
    <message>
        <source>API key:</source>
        <translation>API 密钥：</translation>
    </message>
    <message>
        <source>Empty: the server needs none</source>
        <translation>留空：服务器不需要密钥</translation>
    </message>
    <message>
        <source>Use it:</source>
        <translation>使用时机：</translation>
    </message>
    <message>
        <source>For all files</source>
        <translation>所有文件</translation>
    </message>
    <message>
        <source>Only when this computer has no working GPU</source>
        <translation>仅在本机没有可用 GPU 时</translation>
    </message>
    <message>
        <source>Pieces sent at once:</source>
        <translation>同时发送的片段数：</translation>
    </message>
    <message>
        <source>How many pieces of a recording are on the server at the same time; more is faster on a server with a big GPU.</source>
        <translation>同一时间在服务器上处理的录音片段数；服务器的 GPU 越强，设得越多越快。</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <source>Sends one second of speech to the server and times the answer.</source>
        <translation>向服务器发送一秒语音，并计时其响应。</translation>
    </message>
    <message>
        <source>Sending one second of speech to {host}…</source>
        <translation>正在向 {host} 发送一秒语音…</translation>
    </message>
    <message>
        <source>(nothing)</source>
        <translation>（无内容）</translation>
    </message>
    <message>
        <source>Connected: the server transcribed one second of speech in {ms} ms (round trip) and heard “{heard}”.</source>
        <translation>已连接：服务器在 {ms} 毫秒内（往返）转写了一秒语音，听到的是“{heard}”。</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Transcription</source>
        <translation>转写</translation>
    </message>
    <message>
        <source>Downloads</source>
        <translation>下载</translation>
    </message>
    <message>
        <source>General</source>
        <translation>常规</translation>
    </message>
    <message>
        <source>Advanced</source>
        <translation>高级</translation>
    </message>
    <message>
        <source>Automatic (recommended)</source>
        <translation>自动（推荐）</translation>
    </message>
    <message>
        <source>Simplified (简体)</source>
        <translation>简体</translation>
    </message>
    <message>
        <source>Traditional (繁體)</source>
        <translation>繁体（繁體）</translation>
    </message>
    <message>
        <source>As recognised</source>
        <translation>保持识别结果</translation>
    </message>
    <message>
        <source>Speech recognition</source>
        <translation>语音识别</translation>
    </message>
    <message>
        <source>Engine:</source>
        <translation>引擎：</translation>
    </message>
    <message>
        <source>Run on:</source>
        <translation>运行于：</translation>
    </message>
    <message>
        <source>Chinese script:</source>
        <translation>简繁体：</translation>
    </message>
    <message>
        <source>The engine for graphics cards (openai-whisper)</source>
        <translation>适用于显卡的引擎（openai-whisper）</translation>
    </message>
    <message>
        <source>Where live recordings are kept</source>
        <translation>实时录音的保存位置</translation>
    </message>
    <message>
        <source>The engine for processors (faster-whisper)</source>
        <translation>适用于处理器的引擎（faster-whisper）</translation>
    </message>
    <message>
        <source>Automatic: the graphics card when it works, else the processor</source>
        <translation>自动：显卡可用时用显卡，否则用处理器</translation>
    </message>
    <message>
        <source>The graphics card</source>
        <translation>显卡</translation>
    </message>
    <message>
        <source>The processor</source>
        <translation>处理器</translation>
    </message>
    <message>
        <source>Transcription engine</source>
        <translation>转写引擎</translation>
    </message>
    <message>
        <source>Pieces of speech worked on together:</source>
        <translation>同时处理的语音片段数：</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>Subtitle lines</source>
        <translation>字幕行</translation>
    </message>
    <message>
        <source>Lines per subtitle, at most:</source>
        <translation>每条字幕最多行数：</translation>
    </message>
    <message>
        <source>Line length for Latin text, at most:</source>
        <translation>西文每行最多：</translation>
    </message>
    <message>
        <source>Line length for Chinese text, at most:</source>
        <translation>中文每行最多：</translation>
    </message>
    <message>
        <source> characters</source>
        <translation> 个字符</translation>
    </message>
    <message>
        <source>Reading speed</source>
        <translation>阅读速度</translation>
    </message>
    <message>
        <source>The transcript&apos;s table warns about subtitles past these limits, as does “voxdesk subtitles check”.</source>
        <translation>超出这些限度的字幕，转写表格会给出提醒，“voxdesk subtitles check”也会报告。</translation>
    </message>
    <message>
        <source>Characters a second for Latin text, at most:</source>
        <translation>拉丁文字每秒字符数，最多：</translation>
    </message>
    <message>
        <source>Characters a second for Chinese text, at most:</source>
        <translation>中文每秒字数，最多：</translation>
    </message>
    <message>
        <source>On screen, at least:</source>
        <translation>显示时间，至少：</translation>
    </message>
    <message>
        <source>On screen, at most:</source>
        <translation>显示时间，最多：</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>Speech synthesis</source>
        <translation>语音合成</translation>
    </message>
    <message>
        <source>Mark synthesized speech with an inaudible watermark</source>
        <translation>在合成的语音中加入听不见的水印</translation>
    </message>
    <message>
        <source>Anyone can then check with Tools → Check for a VoxDesk watermark… that the speech came from VoxDesk. Cloned voices are always marked.</source>
        <translation>之后任何人都可以用“工具 → 检查 VoxDesk 水印…”确认这段语音来自 VoxDesk。克隆的声音总会带有水印。</translation>
    </message>
    <message>
        <source>Live captions</source>
        <translation>实时字幕</translation>
    </message>
    <message>
        <source>Keep recordings in:</source>
        <translation>录音保存在：</translation>
    </message>
    <message>
        <source>Empty: a Recordings folder in your Documents.</source>
        <translation>留空：保存在“文档”中的“录音”文件夹。</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <source>Graphics card, applied the next time VoxDesk starts</source>
        <translation>显卡（下次启动 VoxDesk 时生效）</translation>
    </message>
    <message>
        <source>Interface</source>
        <translation>界面</translation>
    </message>
    <message>
        <source>Interface language:</source>
        <translation>界面语言：</translation>
    </message>
    <message>
        <source>Same as the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>The window switches language as soon as you press OK.</source>
        <translation>按“确定”后，窗口立即切换语言。</translation>
    </message>
    <message>
        <source>GPU compatibility version:</source>
        <translation>GPU 兼容版本：</translation>
    </message>
    <message>
        <source>Empty: not needed on most computers</source>
        <translation>留空：大多数电脑不需要</translation>
    </message>
    <message>
        <source>Some AMD Radeon cards work only when told to act as a close relative, e.g. 10.3.0 for RX 6000 cards or 11.0.0 for RX 7600. Help → Doctor suggests the value when one is needed.</source>
        <translation>部分 AMD Radeon 显卡需要按相近型号的身份运行才能工作，例如 RX 6000 系列填 10.3.0，RX 7600 填 11.0.0。需要时，“帮助 → 诊断”会给出建议值。</translation>
    </message>
    <message>
        <source>The model, language and task are chosen on the Transcribe tab.</source>
        <translation>模型、语言和任务在“转写”页中选择。</translation>
    </message>
</context>
<context>
    <name>Sound</name>
    <message>
        <source>Sound is unavailable because the PortAudio library is missing. Install the package “{package}” ({command}), then start VoxDesk again.</source>
        <translation>缺少 PortAudio 库，声音功能不可用。请安装软件包“{package}”（{command}），然后重新启动 VoxDesk。</translation>
    </message>
</context>
<context>
    <name>SpeakPanel</name>
    <message>
        <source>Voice:</source>
        <translation>声音：</translation>
    </message>
    <message>
        <source>Language:</source>
        <translation>语言：</translation>
    </message>
    <message>
        <source>Type the text to speak in the chosen voice.</source>
        <translation>输入要用所选声音朗读的文字。</translation>
    </message>
    <message>
        <source>Speak</source>
        <translation>朗读</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>播放</translation>
    </message>
    <message>
        <source>Save as WAV…</source>
        <translation>另存为 WAV…</translation>
    </message>
    <message>
        <source>Voice model:</source>
        <translation>语音模型：</translation>
    </message>
    <message>
        <source>The voice model that speaks the text in the saved voice.</source>
        <translation>用已保存的声音朗读文字的语音模型。</translation>
    </message>
    <message>
        <source>Model folder: {folder}</source>
        <translation>模型文件夹：{folder}</translation>
    </message>
    <message>
        <source>The licence of the chosen voice model: {licence} allows commercial use.</source>
        <translation>所选语音模型的许可协议：{licence} 允许商业使用。</translation>
    </message>
    <message>
        <source>The licence of the chosen voice model: {licence} is a non-commercial licence, so the speech may not be used for business.</source>
        <translation>所选语音模型的许可协议：{licence} 是非商业许可协议，因此生成的语音不得用于商业用途。</translation>
    </message>
    <message>
        <source>Choose a saved voice first, or add one on the “Add a voice” page.</source>
        <translation>请先选择一个已保存的声音，或在“添加声音”页中添加。</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>正在开始…</translation>
    </message>
    <message>
        <source>Sentence {done} of {total}</source>
        <translation>第 {done} 句，共 {total} 句</translation>
    </message>
    <message>
        <source>{seconds:.0f} s of speech</source>
        <translation>语音 {seconds:.0f} 秒</translation>
    </message>
    <message>
        <source>Done. Play it again or save it as a WAV file.</source>
        <translation>完成。可以再次播放，或保存为 WAV 文件。</translation>
    </message>
    <message>
        <source>Done (cancelled part-way). Play it again or save it as a WAV file.</source>
        <translation>完成（中途已取消）。可以再次播放，或保存为 WAV 文件。</translation>
    </message>
    <message>
        <source>Voice match: not measured. {note}</source>
        <translation>声音相似度：未测量。{note}</translation>
    </message>
    <message>
        <source>Voice match: {score:.0%} ({label})</source>
        <translation>声音相似度：{score:.0%}（{label}）</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>Cancelled before the first sentence was ready.</source>
        <translation>第一句生成前已取消。</translation>
    </message>
    <message>
        <source>Stopping after this sentence…</source>
        <translation>这一句完成后停止…</translation>
    </message>
    <message>
        <source>Save the speech</source>
        <translation>保存语音</translation>
    </message>
    <message>
        <source>WAV audio (*.wav)</source>
        <translation>WAV 音频 (*.wav)</translation>
    </message>
    <message>
        <source>There is no speech to save yet. Press Speak first.</source>
        <translation>还没有可保存的语音。请先按“朗读”。</translation>
    </message>
    <message>
        <source>Saved “{name}”.</source>
        <translation>已保存“{name}”。</translation>
    </message>
</context>
<context>
    <name>SpeakerDelegate</name>
    <message>
        <source>New speaker</source>
        <translation>新说话人</translation>
    </message>
</context>
<context>
    <name>SpeakerLabelling</name>
    <message>
        <source>Label s&amp;peakers</source>
        <translation>标注说话人(&amp;P)</translation>
    </message>
    <message>
        <source>Find who speaks on each line of this transcript, from its recording. Names you gave stay with the voices found again.</source>
        <translation>根据录音找出这份文字稿每一行是谁在说话。您起过的姓名会留在再次找到的声音上。</translation>
    </message>
    <message>
        <source>&amp;Find how many speak</source>
        <translation>自动判断人数(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;{count} speakers</source>
        <translation>&amp;{count} 位说话人</translation>
    </message>
    <message>
        <source>Finding who speaks in “{name}”…</source>
        <translation>正在找出“{name}”中是谁在说话…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Label speakers</source>
        <translation>标注说话人</translation>
    </message>
    <message>
        <source>Labelling speakers was stopped: the lines are as they were.</source>
        <translation>已停止标注说话人：各行保持原样。</translation>
    </message>
    <message>
        <source>“{name}” changed while its speakers were being found, so they were not put in: label speakers again.</source>
        <translation>查找说话人期间“{name}”有了改动，因此没有填入说话人：请重新标注说话人。</translation>
    </message>
    <message>
        <source>No voices could be told apart in “{name}”: the lines are as they were.</source>
        <translation>在“{name}”中无法区分出不同的声音：各行保持原样。</translation>
    </message>
    <message>
        <source>{count} speaker(s) found in “{name}”. Edit → Undo takes them back.</source>
        <translation>在“{name}”中找到 {count} 位说话人。用“编辑 → 撤销”可以恢复原样。</translation>
    </message>
    <message>
        <source>The speakers found in “{name}” are the ones its lines already have.</source>
        <translation>在“{name}”中找到的说话人与各行现有的说话人相同。</translation>
    </message>
    <message>
        <source>Speakers could not be labelled, the lines are as they were: {reason}</source>
        <translation>无法标注说话人，各行保持原样：{reason}</translation>
    </message>
</context>
<context>
    <name>Speakers</name>
    <message>
        <source>Speaker {number}</source>
        <translation>说话人{number}</translation>
    </message>
</context>
<context>
    <name>SpeakersBar</name>
    <message>
        <source>Speakers:</source>
        <translation>说话人：</translation>
    </message>
    <message>
        <source>Type a name and press Enter: every line of this speaker gets it.</source>
        <translation>输入姓名后按回车：此说话人的每一行都会改用这个姓名。</translation>
    </message>
    <message>
        <source>Remember this voice as…</source>
        <translation>将此声音记为…</translation>
    </message>
</context>
<context>
    <name>SpeakersCombo</name>
    <message>
        <source>Say who speaks on each line. Automatic finds how many people speak; if you know, choose the number.</source>
        <translation>标注每一行是谁在说话。“自动”会判断有几个人在说话；如果您知道人数，请直接选择人数。</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>{count} speakers</source>
        <translation>{count} 位说话人</translation>
    </message>
</context>
<context>
    <name>SpeechEngine</name>
    <message>
        <source>Speech synthesis</source>
        <translation>语音合成</translation>
    </message>
    <message>
        <source>There is no text to read. Type or paste some text first.</source>
        <translation>没有可朗读的文字。请先输入或粘贴文字。</translation>
    </message>
    <message>
        <source>The text has only punctuation, symbols or emoji, so there is nothing to read aloud. Type some words.</source>
        <translation>文字中只有标点、符号或表情，没有可朗读的内容。请输入一些文字。</translation>
    </message>
    <message>
        <source>Speaking on the {device}…</source>
        <translation>正在 {device} 上朗读…</translation>
    </message>
    <message>
        <source>Loading the voice model “{title}”…</source>
        <translation>正在加载语音模型“{title}”…</translation>
    </message>
    <message>
        <source>load voice model</source>
        <translation>加载语音模型</translation>
    </message>
    <message>
        <source>The voice model “{title}” is not on this computer yet. Download it from the model list, or import its folder.</source>
        <translation>这台电脑上还没有语音模型“{title}”。请从模型列表中下载，或导入它的文件夹。</translation>
    </message>
    <message>
        <source>“{wanted}” is not one of the voices of “{title}”. Choose one of: {shown}.</source>
        <translation>“{wanted}”不是“{title}”的音色。请从以下音色中选择：{shown}。</translation>
    </message>
    <message>
        <source>“{title}” does not speak {language}. Choose {suggestion}, or set the language to one it speaks ({languages}).</source>
        <translation>“{title}”不会说{language}。请选择{suggestion}，或把语言设为它会说的语言（{languages}）。</translation>
    </message>
    <message>
        <source>“{title}” speaks {languages} only, so it cannot read the Chinese in this text. Choose {suggestion}.</source>
        <translation>“{title}”只会说{languages}，无法朗读这段文字中的中文。请选择{suggestion}。</translation>
    </message>
    <message>
        <source>“{title}” speaks {languages} only, so it cannot read this English text. Choose {suggestion}.</source>
        <translation>“{title}”只会说{languages}，无法朗读这段英文。请选择{suggestion}。</translation>
    </message>
    <message>
        <source>“{title}” skips the Latin letters in this text. XTTS v2 reads Chinese and English together.</source>
        <translation>“{title}”会跳过文字中的拉丁字母。XTTS v2 可以同时朗读中文和英文。</translation>
    </message>
    <message>
        <source>“{title}” cannot say these characters and skips them: {characters}</source>
        <translation>“{title}”读不出以下字符，将跳过：{characters}</translation>
    </message>
    <message>
        <source>speak a sentence</source>
        <translation>朗读句子</translation>
    </message>
    <message>
        <source>Piper voices need the espeak-ng program to read text. Install it (sudo apt install espeak-ng), then try again.</source>
        <translation>Piper 语音需要 espeak-ng 程序来读取文字。请安装它（sudo apt install espeak-ng），然后重试。</translation>
    </message>
    <message>
        <source>espeak-ng did not turn the text into sounds. Check that it is installed correctly (sudo apt install espeak-ng), then try again.</source>
        <translation>espeak-ng 未能把文字转换成读音。请检查它是否正确安装（sudo apt install espeak-ng），然后重试。</translation>
    </message>
    <message>
        <source>espeak-ng does not know the language “{voice}” this voice needs. Install the full espeak-ng (sudo apt install espeak-ng), then try again.</source>
        <translation>espeak-ng 不认识这个语音需要的语言“{voice}”。请安装完整的 espeak-ng（sudo apt install espeak-ng），然后重试。</translation>
    </message>
    <message>
        <source>The speech synthesis part of VoxDesk is not installed correctly. Run the installer again (make setup).</source>
        <translation>VoxDesk 的语音合成组件安装不正确。请重新运行安装程序（make setup）。</translation>
    </message>
    <message>
        <source>The voice model “{title}” is missing one of its files. Download or import it again.</source>
        <translation>语音模型“{title}”缺少文件。请重新下载或导入。</translation>
    </message>
    <message>
        <source>The voice model “{title}” could not be loaded: its model file is damaged or does not match its config.json. Download or import it again.</source>
        <translation>无法加载语音模型“{title}”：模型文件已损坏或与 config.json 不匹配。请重新下载或导入。</translation>
    </message>
    <message>
        <source>The voice model “{title}” needs the espeak-ng program to read text. Install it (sudo apt install espeak-ng), then try again.</source>
        <translation>语音模型“{title}”需要 espeak-ng 程序来读取文字。请安装（sudo apt install espeak-ng）后重试。</translation>
    </message>
    <message>
        <source>The voice model “{title}” needs the Chinese text tools (pypinyin, spacy-pkuseg), which are not installed. Run the installer again (make setup), then try again.</source>
        <translation>语音模型“{title}”需要的中文文本工具（pypinyin、spacy-pkuseg）尚未安装。请重新运行安装程序（make setup）后重试。</translation>
    </message>
    <message>
        <source>The voice model “{title}” needs a text tool that is not installed. Run the installer again (make setup), then try again.</source>
        <translation>语音模型“{title}”需要的文本工具尚未安装。请重新运行安装程序（make setup）后重试。</translation>
    </message>
    <message>
        <source>one language</source>
        <translation>一种语言</translation>
    </message>
    <message>
        <source>{first}, {second}</source>
        <translation>{first}、{second}</translation>
    </message>
    <message>
        <source>{first} and {last}</source>
        <translation>{first}和{last}</translation>
    </message>
    <message>
        <source>a model that speaks {language}, such as “{title}” or “{other}”</source>
        <translation>会说{language}的模型，例如“{title}”或“{other}”</translation>
    </message>
    <message>
        <source>a model that speaks {language}, such as “{title}”</source>
        <translation>会说{language}的模型，例如“{title}”</translation>
    </message>
    <message>
        <source>“{title}” speaks {languages} only, so it cannot read the Chinese in this text, and no Chinese voice is on this computer. Download “{suggested}” from the model list (or add a Chinese voice with “Import model folder…”), then speak again.</source>
        <translation>“{title}”只会说{languages}，无法朗读这段文字中的中文，而这台电脑上还没有中文声音。请在模型列表中下载“{suggested}”（或用“导入模型文件夹…”添加一个中文声音），然后再朗读。</translation>
    </message>
    <message>
        <source>“{title}” reads the {own} and “{other}” the {language} in this text.</source>
        <translation>这段文字中的{own}由“{title}”朗读，{language}由“{other}”朗读。</translation>
    </message>
</context>
<context>
    <name>SpeechFile</name>
    <message>
        <source>WAV audio</source>
        <translation>WAV 音频</translation>
    </message>
    <message>
        <source>MP3 audio</source>
        <translation>MP3 音频</translation>
    </message>
    <message>
        <source>VoxDesk can save speech as .wav or .mp3 files, not “.{suffix}”. Choose one of those file types.</source>
        <translation>语音只能保存为 .wav 或 .mp3 文件，不能保存为“.{suffix}”。请选择这两种文件类型之一。</translation>
    </message>
    <message>
        <source>There is no speech to save yet. Press Speak first.</source>
        <translation>还没有可保存的语音。请先按“朗读”。</translation>
    </message>
    <message>
        <source>This installation cannot write MP3 files. Save as WAV instead.</source>
        <translation>当前安装无法写入 MP3 文件。请改存为 WAV。</translation>
    </message>
</context>
<context>
    <name>SpeechModels</name>
    <message>
        <source>English, fast (VITS, LJSpeech)</source>
        <translation>英语，快速（VITS，LJSpeech）</translation>
    </message>
    <message>
        <source>A clear female English voice that is quick enough for the CPU.</source>
        <translation>清晰的英语女声，在 CPU 上也足够快。</translation>
    </message>
    <message>
        <source>English, many voices (VITS, VCTK)</source>
        <translation>英语，多种音色（VITS，VCTK）</translation>
    </message>
    <message>
        <source>109 English voices with British and other accents; pick one in the voice list.</source>
        <translation>109 种英语音色，包括英式等多种口音；请在音色列表中选择。</translation>
    </message>
    <message>
        <source>Chinese (Tacotron 2, Baker)</source>
        <translation>中文（Tacotron 2，标贝）</translation>
    </message>
    <message>
        <source>XTTS v2, 17 languages</source>
        <translation>XTTS v2，17 种语言</translation>
    </message>
    <message>
        <source>Natural voices in 17 languages, including Chinese and English, with built-in speakers. Large and slow on the CPU; free for non-commercial use only.</source>
        <translation>自然的语音，支持包括中文和英文在内的 17 种语言，自带多种音色。模型较大，在 CPU 上较慢；仅限非商业用途免费使用。</translation>
    </message>
    <message>
        <source>English, natural and fast (Piper, Joe)</source>
        <translation>英语，自然且快速（Piper，Joe）</translation>
    </message>
    <message>
        <source>A clear male American English voice, made for the CPU. Fine-tuned from a voice recorded for non-commercial research.</source>
        <translation>清晰的美式英语男声，专为 CPU 设计。由一个为非商业研究录制的语音微调而来。</translation>
    </message>
    <message>
        <source>Chinese, natural and fast (Piper, Huayan)</source>
        <translation>中文，自然且快速（Piper，Huayan）</translation>
    </message>
    <message>
        <source>A female Mandarin voice. English words in the text are read by an English voice on this computer; without one, they are skipped.</source>
        <translation>普通话女声。文字中的英文单词由这台电脑上的英文语音朗读；没有英文语音时会被跳过。</translation>
    </message>
    <message>
        <source>A female Mandarin voice, made for the CPU. English words in the text are read by an English voice on this computer; without one, they are skipped.</source>
        <translation>普通话女声，专为 CPU 设计。文字中的英文单词由这台电脑上的英文语音朗读；没有英文语音时会被跳过。</translation>
    </message>
    <message>
        <source>VoxDesk could not reach the download server. Check the internet connection, or choose another download source in Settings → Downloads. Without internet, copy the voice model&apos;s folder to this computer and use “Import model folder…” next to the model list on the Synthesize tab, or ask your IT department for the shared model folder.</source>
        <translation>VoxDesk 无法连接下载服务器。请检查网络连接，或在“设置 → 下载”中选择其他下载来源。没有网络时，请把语音模型的文件夹复制到这台电脑上，然后使用“语音合成”标签页模型列表旁边的“导入模型文件夹…”，或向 IT 部门索取共享模型文件夹。</translation>
    </message>
    <message>
        <source>To use this model you must confirm:</source>
        <translation>使用这个模型前，您必须确认：</translation>
    </message>
    <message>
        <source>The full terms: {url}</source>
        <translation>完整条款：{url}</translation>
    </message>
    <message>
        <source>I have purchased a commercial license from Coqui: licensing@coqui.ai</source>
        <translation>我已从 Coqui 购买商业许可：licensing@coqui.ai</translation>
    </message>
    <message>
        <source>Otherwise, I agree to the terms of the non-commercial CPML: https://tts-hub.github.io/cpml</source>
        <translation>否则，我同意非商业 CPML 许可协议的条款：https://tts-hub.github.io/cpml</translation>
    </message>
    <message>
        <source>The speech synthesis part of VoxDesk is not installed. Run the installer again (make setup).</source>
        <translation>VoxDesk 的语音合成组件未安装。请重新运行安装程序（make setup）。</translation>
    </message>
    <message>
        <source>The list of voice models could not be read. Run the installer again (make setup).</source>
        <translation>无法读取语音模型列表。请重新运行安装程序（make setup）。</translation>
    </message>
    <message>
        <source>There is no voice model called “{name}”. Choose one from the model list, or import its folder with “Import model folder…”.</source>
        <translation>没有名为“{name}”的语音模型。请从模型列表中选择，或用“导入模型文件夹…”导入它的文件夹。</translation>
    </message>
    <message>
        <source>The voice model “{title}” is not on this computer yet. Download it first.</source>
        <translation>这台电脑上还没有语音模型“{title}”。请先下载。</translation>
    </message>
    <message>
        <source>I agree to the terms of the {licence} licence.</source>
        <translation>我同意 {licence} 许可协议的条款。</translation>
    </message>
    <message>
        <source>The licence of “{title}” ({licence}) must be accepted before it can be downloaded.</source>
        <translation>必须先接受“{title}”的许可协议（{licence}）才能下载。</translation>
    </message>
    <message>
        <source>VoxDesk does not know where to download “{title}”. Import its folder instead.</source>
        <translation>VoxDesk 不知道从哪里下载“{title}”。请改为导入它的文件夹。</translation>
    </message>
    <message>
        <source>The download server has no files for “{title}”; please try again later.</source>
        <translation>下载服务器上没有“{title}”的文件；请稍后重试。</translation>
    </message>
    <message>
        <source>The download of “{title}” was refused: it names a file outside its folder.</source>
        <translation>已拒绝“{title}”的下载：其中引用了文件夹之外的文件。</translation>
    </message>
    <message>
        <source>A voice model called “{title}” is already imported. Give this one another name.</source>
        <translation>已导入名为“{title}”的语音模型。请为这个模型另取一个名称。</translation>
    </message>
    <message>
        <source>No Piper or Coqui voice was found in “{name}”. Choose the folder that holds the voice&apos;s .onnx and .onnx.json files (Piper), or its model file and config.json (Coqui).</source>
        <translation>在“{name}”中没有找到 Piper 或 Coqui 语音。请选择存放该语音 .onnx 和 .onnx.json 文件的文件夹（Piper），或存放其模型文件和 config.json 的文件夹（Coqui）。</translation>
    </message>
    <message>
        <source>The folder “{name}” holds several voices ({folders}). Choose the folder of the one to import.</source>
        <translation>文件夹“{name}”中有多个语音（{folders}）。请选择要导入的那个语音所在的文件夹。</translation>
    </message>
    <message>
        <source>The folder {folder} does not exist. Choose the folder that holds the model files.</source>
        <translation>文件夹 {folder} 不存在。请选择存放模型文件的文件夹。</translation>
    </message>
    <message>
        <source>The folder “{name}” has no config.json, so it is not a complete Coqui model. Choose the folder that holds both the model file and config.json.</source>
        <translation>文件夹“{name}”中没有 config.json，不是完整的 Coqui 模型。请选择同时包含模型文件和 config.json 的文件夹。</translation>
    </message>
    <message>
        <source>The config.json in “{name}” is damaged, so the model cannot be used. Copy the folder again from its source.</source>
        <translation>“{name}”中的 config.json 已损坏，模型无法使用。请从原处重新复制该文件夹。</translation>
    </message>
    <message>
        <source>The config.json in “{name}” is not a Coqui voice model configuration. Choose the folder of a Coqui TTS model.</source>
        <translation>“{name}”中的 config.json 不是 Coqui 语音模型的配置。请选择 Coqui TTS 模型的文件夹。</translation>
    </message>
    <message>
        <source>The folder “{name}” is missing the file {file} that the model needs ({field}). Copy the whole folder again.</source>
        <translation>文件夹“{name}”缺少模型所需的文件 {file}（{field}）。请重新复制整个文件夹。</translation>
    </message>
    <message>
        <source>The folder “{name}” has no model file (model.pth), only its settings. Copy the whole model folder, including the .pth file.</source>
        <translation>文件夹“{name}”中只有设置，没有模型文件（model.pth）。请复制包括 .pth 文件在内的整个模型文件夹。</translation>
    </message>
    <message>
        <source>The folder “{name}” holds several model files ({files}). Keep only the one to use, or rename it to model.pth.</source>
        <translation>文件夹“{name}”中有多个模型文件（{files}）。请只保留要用的那个，或把它重命名为 model.pth。</translation>
    </message>
    <message>
        <source>The folder “{name}” is missing {file}. Copy the whole model folder again.</source>
        <translation>文件夹“{name}”缺少 {file}。请重新复制整个模型文件夹。</translation>
    </message>
    <message>
        <source>VoxDesk cannot read the model file {name}. Check that the folder is readable.</source>
        <translation>VoxDesk 无法读取模型文件 {name}。请确认该文件夹可读。</translation>
    </message>
    <message>
        <source>The model file {file} in “{name}” is damaged or incomplete. Copy the model folder again from its source.</source>
        <translation>“{name}”中的模型文件 {file} 已损坏或不完整。请从原处重新复制模型文件夹。</translation>
    </message>
    <message>
        <source>not stated (imported)</source>
        <translation>未说明（导入）</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>The download of “{title}” holds two files called {file} in different folders, so VoxDesk cannot tell which one the model needs. Import the model&apos;s folder instead.</source>
        <translation>“{title}”的下载内容中，不同文件夹里有两个名为 {file} 的文件，VoxDesk 无法判断模型需要哪一个。请改为导入模型文件夹。</translation>
    </message>
    <message>
        <source>The download of “{title}” was damaged on the way, so VoxDesk deleted it; please try again.</source>
        <translation>“{title}”在下载过程中损坏，VoxDesk 已将其删除；请重试。</translation>
    </message>
    <message>
        <source>the voice model</source>
        <translation>语音模型</translation>
    </message>
</context>
<context>
    <name>SpeechProgress</name>
    <message>
        <source>Starting…</source>
        <translation>正在开始…</translation>
    </message>
    <message>
        <source>Sentence {done} of {total}</source>
        <translation>第 {done} 句，共 {total} 句</translation>
    </message>
    <message>
        <source>{count} sentences · {seconds:.0f} s of speech</source>
        <translation>{count} 句 · 语音 {seconds:.0f} 秒</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>Cancelled after sentence {done}</source>
        <translation>在第 {done} 句后取消</translation>
    </message>
    <message>
        <source>Copying the model… {percent}%</source>
        <translation>正在复制模型…{percent}%</translation>
    </message>
</context>
<context>
    <name>SpeechSaver</name>
    <message>
        <source>Save the speech</source>
        <translation>保存语音</translation>
    </message>
    <message>
        <source>speech.wav</source>
        <translation>语音.wav</translation>
    </message>
    <message>
        <source>WAV audio (*.wav);;MP3 audio (*.mp3)</source>
        <translation>WAV 音频 (*.wav);;MP3 音频 (*.mp3)</translation>
    </message>
</context>
<context>
    <name>SpeechText</name>
    <message>
        <source>“{name}” is too long to read aloud in one go (more than {limit:,} characters). Split it into parts of at most {limit:,} characters.</source>
        <translation>“{name}”太长，无法一次朗读（超过 {limit:,} 个字符）。请拆分成每段最多 {limit:,} 个字符。</translation>
    </message>
    <message>
        <source>VoxDesk cannot open “{name}”. Check that the file still exists and that you may read it.</source>
        <translation>VoxDesk 无法打开“{name}”。请确认文件仍然存在，并且您有读取权限。</translation>
    </message>
    <message>
        <source>“{name}” is not a text file VoxDesk can read. Save it as plain text (.txt) and open it again.</source>
        <translation>“{name}”不是 VoxDesk 能读取的文本文件。请另存为纯文本（.txt）后再打开。</translation>
    </message>
    <message>
        <source>“{name}” is too long to read aloud in one go ({count:,} characters). Split it into parts of at most {limit:,} characters.</source>
        <translation>“{name}”太长，无法一次朗读（{count:,} 个字符）。请拆分成每段不超过 {limit:,} 个字符。</translation>
    </message>
</context>
<context>
    <name>Spelling</name>
    <message>
        <source>Spell checking is off: this computer has no English dictionary. Ask whoever looks after it to install the package hunspell-en-us.</source>
        <translation>拼写检查已关闭：这台电脑没有英语词典。请让负责这台电脑的人安装软件包 hunspell-en-us。</translation>
    </message>
    <message>
        <source>Spell checking is off: this computer lacks the spelling library. Ask whoever looks after it to install the package libenchant-2-2.</source>
        <translation>拼写检查已关闭：这台电脑缺少拼写检查库。请让负责这台电脑的人安装软件包 libenchant-2-2。</translation>
    </message>
</context>
<context>
    <name>StatusLines</name>
    <message>
        <source>Open folder</source>
        <translation>打开文件夹</translation>
    </message>
    <message>
        <source>Show the folder the speech was saved in.</source>
        <translation>显示保存语音的文件夹。</translation>
    </message>
</context>
<context>
    <name>StreamPlayer</name>
    <message>
        <source>VoxDesk cannot play sound: no speakers or headphones were found. Check that the sound output is connected and switched on.</source>
        <translation>VoxDesk 无法播放声音：未找到扬声器或耳机。请检查音频输出设备是否已连接并打开。</translation>
    </message>
</context>
<context>
    <name>SubtitleImport</name>
    <message>
        <source>“{name}” is still waiting or being transcribed: when it is done, or once it is taken off the list, open the subtitles again.</source>
        <translation>“{name}”还在等待或正在转写：等它完成后，或把它从列表中移除后，再打开字幕。</translation>
    </message>
    <message>
        <source>“{subtitles}” is open as the transcript of “{recording}”.</source>
        <translation>“{subtitles}”已作为“{recording}”的转写文本打开。</translation>
    </message>
    <message>
        <source>Open subtitles</source>
        <translation>打开字幕</translation>
    </message>
    <message>
        <source>“{recording}” already has a transcript. Replace it with the lines of “{subtitles}” (Edit → Undo brings it back), or open them as a second transcript of the recording, in a row of its own?</source>
        <translation>“{recording}”已经有转写稿。要用“{subtitles}”中的字幕替换它（用“编辑 → 撤销”可以恢复），还是把字幕作为这段录音的第二份转写稿，单独占一行打开？</translation>
    </message>
    <message>
        <source>Replace the transcript</source>
        <translation>替换转写稿</translation>
    </message>
    <message>
        <source>Open as a second transcript</source>
        <translation>作为第二份转写稿打开</translation>
    </message>
</context>
<context>
    <name>Subtitles</name>
    <message>
        <source>“{name}” is too large to be a subtitle file.</source>
        <translation>“{name}”太大，不像是字幕文件。</translation>
    </message>
    <message>
        <source>Line {line} of “{name}” is not UTF-8 text: save the file as UTF-8 and open it again.</source>
        <translation>“{name}”的第 {line} 行不是 UTF-8 文本：请将文件另存为 UTF-8 后重新打开。</translation>
    </message>
    <message>
        <source>“{name}” could not be opened: check that it is still there and that you may read it.</source>
        <translation>无法打开“{name}”：请确认文件仍在原处，并且您有权读取它。</translation>
    </message>
    <message>
        <source>Subtitle {number} would end after {hours} hours, longer than a recording can last: shift by less.</source>
        <translation>第 {number} 条字幕会在 {hours} 小时之后结束，超过录音可能的长度：请少移一点。</translation>
    </message>
    <message>
        <source>“{name}” has more than {limit} subtitles; VoxDesk opens files of up to {limit} subtitles.</source>
        <translation>“{name}”有超过 {limit} 条字幕；VoxDesk 只能打开最多 {limit} 条字幕的文件。</translation>
    </message>
    <message>
        <source>Line {line} of “{name}” could not be read as a subtitle: check its number and its times (like 00:01:02,500 --&gt; 00:01:04,000).</source>
        <translation>“{name}”的第 {line} 行无法作为字幕读取：请检查它的序号和时间（例如 00:01:02,500 --&gt; 00:01:04,000）。</translation>
    </message>
    <message>
        <source>Line 1 of “{name}” does not say WEBVTT, so it is not a WebVTT subtitle file.</source>
        <translation>“{name}”的第 1 行不是 WEBVTT，因此它不是 WebVTT 字幕文件。</translation>
    </message>
    <message>
        <source>Line {line} of “{name}” could not be read as a subtitle: check its times (like 00:01:02.500 --&gt; 00:01:04.000) and the empty line before it.</source>
        <translation>“{name}”的第 {line} 行无法作为字幕读取：请检查它的时间（例如 00:01:02.500 --&gt; 00:01:04.000）以及它前面的空行。</translation>
    </message>
    <message>
        <source>Subtitle {number} would start before the recording does: shift by less.</source>
        <translation>第 {number} 条字幕会在录音开始之前开始：请少移一点。</translation>
    </message>
    <message>
        <source>Subtitle {number} (line {line} of “{name}”) ends before it starts: check its times.</source>
        <translation>第 {number} 条字幕（“{name}”的第 {line} 行）结束时间早于开始时间：请检查它的时间。</translation>
    </message>
    <message>
        <source>Subtitle {number} (line {line} of “{name}”) is timed after {hours} hours, longer than a recording can last: check its times.</source>
        <translation>第 {number} 条字幕（“{name}”的第 {line} 行）的时间在 {hours} 小时之后，超过录音可能的长度：请检查它的时间。</translation>
    </message>
    <message>
        <source>Subtitle {number} (line {line} of “{name}”) is timed before the recording starts: check its times.</source>
        <translation>第 {number} 条字幕（“{name}”的第 {line} 行）的时间在录音开始之前：请检查它的时间。</translation>
    </message>
    <message>
        <source>Subtitle {number} (line {line} of “{name}”) has a time that is not a number: check its times.</source>
        <translation>第 {number} 条字幕（“{name}”的第 {line} 行）有一个不是数字的时间：请检查它的时间。</translation>
    </message>
</context>
<context>
    <name>Subtitles command</name>
    <message>
        <source>takes a number of seconds, like 1.5 or -0.25, of at most {hours} hours either way, not {text}.</source>
        <translation>需要一个秒数，例如 1.5 或 -0.25，前后最多 {hours} 小时，而不是 {text}。</translation>
    </message>
    <message>
        <source>--{option} takes a number above 0.</source>
        <translation>--{option} 需要一个大于 0 的数。</translation>
    </message>
    <message>
        <source>--language names {codes} languages for {files} subtitle file(s); give one for each file.</source>
        <translation>--language 给出了 {codes} 种语言，但字幕文件有 {files} 个；请为每个文件各给一种。</translation>
    </message>
</context>
<context>
    <name>Suggestion</name>
    <message>
        <source>sounds like {name} —</source>
        <translation>听起来像{name} —</translation>
    </message>
    <message>
        <source>Accept</source>
        <translation>接受</translation>
    </message>
    <message>
        <source>Name this speaker {name} on every line ({sure:.0%} sure).</source>
        <translation>在每一行将此说话人命名为{name}（把握 {sure:.0%}）。</translation>
    </message>
    <message>
        <source>Not {name}</source>
        <translation>不是{name}</translation>
    </message>
    <message>
        <source>This speaker is not {name}: VoxDesk will not suggest {name} for them in this transcript again.</source>
        <translation>此说话人不是{name}：VoxDesk 不会在此转写中再次为其建议{name}。</translation>
    </message>
</context>
<context>
    <name>SynthesizeTab</name>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>GPU (experimental)</source>
        <translation>GPU（实验性）</translation>
    </message>
    <message>
        <source>The GPU failed, so speech continues on the CPU. {fix}</source>
        <translation>GPU 出错，语音合成改在 CPU 上继续。{fix}</translation>
    </message>
    <message>
        <source>Speak</source>
        <translation>朗读</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Save…</source>
        <translation>保存…</translation>
    </message>
    <message>
        <source>Even out the loudness for speech</source>
        <translation>统一语音音量</translation>
    </message>
    <message>
        <source>The voices appear here once the model is downloaded.</source>
        <translation>模型下载后，这里会列出它的音色。</translation>
    </message>
    <message>
        <source>Loading the voices…</source>
        <translation>正在加载音色…</translation>
    </message>
    <message>
        <source>“{title}” is ready.</source>
        <translation>“{title}”已就绪。</translation>
    </message>
    <message>
        <source>{count} voices</source>
        <translation>{count} 种音色</translation>
    </message>
    <message>
        <source>Switched to “{title}”, which speaks the chosen language.</source>
        <translation>已切换到会说所选语言的“{title}”。</translation>
    </message>
    <message>
        <source>Copying the model…</source>
        <translation>正在复制模型…</translation>
    </message>
    <message>
        <source>The import was cancelled; nothing was added.</source>
        <translation>导入已取消，没有添加任何内容。</translation>
    </message>
    <message>
        <source>The model “{title}” was imported and is now chosen.</source>
        <translation>模型“{title}”已导入并选用。</translation>
    </message>
    <message>
        <source>Opened “{name}”.</source>
        <translation>已打开“{name}”。</translation>
    </message>
    <message>
        <source>Done. Play it again or save it as a file.</source>
        <translation>完成。可以再次播放，或保存为文件。</translation>
    </message>
    <message>
        <source>Cancelled. The first {made} of {total} sentences were made; you can play and save them.</source>
        <translation>已取消。{total} 句中已生成前 {made} 句，可以播放和保存。</translation>
    </message>
    <message>
        <source>Cancelled before the first sentence was ready.</source>
        <translation>第一句生成前已取消。</translation>
    </message>
    <message>
        <source>Stopping after this sentence…</source>
        <translation>这一句完成后停止…</translation>
    </message>
    <message>
        <source>Done. {voices} Play it again or save it as a file.</source>
        <translation>完成。{voices}可以再次播放，或保存为文件。</translation>
    </message>
    <message>
        <source>Preparing a sample of “{voice}”…</source>
        <translation>正在准备“{voice}”的试听示例…</translation>
    </message>
    <message>
        <source>There is no speech to save yet. Press Speak first.</source>
        <translation>还没有可保存的语音。请先按“朗读”。</translation>
    </message>
    <message>
        <source>Saved “{name}” in the folder {folder}.</source>
        <translation>已将“{name}”保存到文件夹 {folder}。</translation>
    </message>
    <message>
        <source>Not saved: “{name}” was kept as it was.</source>
        <translation>未保存：“{name}”保持原样。</translation>
    </message>
    <message>
        <source>The licence was not accepted, so the model was not downloaded.</source>
        <translation>未接受许可协议，因此没有下载模型。</translation>
    </message>
    <message>
        <source>The download was cancelled; it continues where it stopped next time.</source>
        <translation>下载已取消；下次会从中断处继续。</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>播放</translation>
    </message>
</context>
<context>
    <name>TimingByEar</name>
    <message>
        <source>Play the recording first: the line&apos;s start or end is set to where it is playing.</source>
        <translation>请先播放录音：行的开始或结束时间会设为正在播放的位置。</translation>
    </message>
</context>
<context>
    <name>TranscribeAgain</name>
    <message>
        <source>Transcribe &amp;again…</source>
        <translation>重新转写(&amp;A)…</translation>
    </message>
    <message>
        <source>Decode the selected lines again, with another model, language or prompt</source>
        <translation>用其他模型、语言或提示词重新识别所选的行</translation>
    </message>
    <message>
        <source>Transcribed {lines} again. Edit → Undo brings back the old lines.</source>
        <translation>已重新转写{lines}。“编辑 → 撤销”可恢复原来的行。</translation>
    </message>
    <message>
        <source>{reason} The lines stay as they were.</source>
        <translation>{reason}这些行保持原样。</translation>
    </message>
    <message>
        <source>Transcribe again was cancelled: the lines stay as they were.</source>
        <translation>已取消重新转写：这些行保持原样。</translation>
    </message>
</context>
<context>
    <name>TranscribeAgainDialog</name>
    <message>
        <source>Transcribe again</source>
        <translation>重新转写</translation>
    </message>
    <message>
        <source>VoxDesk listens again to {span} of the recording and puts what it hears in place of {lines}. Edit → Undo brings the old lines back.</source>
        <translation>VoxDesk 会重新听录音中 {span} 这一段，并用听到的内容替换{lines}。“编辑 → 撤销”可恢复原来的行。</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>模型：</translation>
    </message>
    <message>
        <source>The models on this computer. A larger one hears more accurately, and takes longer.</source>
        <translation>本机上的模型。模型越大，识别越准确，用时也越长。</translation>
    </message>
    <message>
        <source>Language:</source>
        <translation>语言：</translation>
    </message>
    <message>
        <source>Initial prompt:</source>
        <translation>提示词：</translation>
    </message>
    <message>
        <source>Optional: names or terms, spelled as you want them</source>
        <translation>可选：人名或术语，按您希望的写法填写</translation>
    </message>
    <message>
        <source>&amp;Transcribe again</source>
        <translation>重新转写(&amp;T)</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>正在开始…</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
</context>
<context>
    <name>TranscribeTab</name>
    <message>
        <source>Show the file list</source>
        <translation>显示文件列表</translation>
    </message>
    <message>
        <source>Bring back the list of files and the options above the transcript ({key})</source>
        <translation>在转写稿上方重新显示文件列表和选项（{key}）</translation>
    </message>
    <message>
        <source>Larger editor</source>
        <translation>放大编辑区</translation>
    </message>
    <message>
        <source>Give the transcript the whole tab: the list of files and the options fold away ({key})</source>
        <translation>让转写稿占满整个页面：文件列表和选项会收起（{key}）</translation>
    </message>
    <message>
        <source>Open subtitles</source>
        <translation>打开字幕</translation>
    </message>
    <message>
        <source>Subtitles (*.srt *.vtt)</source>
        <translation>字幕 (*.srt *.vtt)</translation>
    </message>
    <message>
        <source>The recording of “{name}”</source>
        <translation>“{name}”的录音</translation>
    </message>
    <message>
        <source>Recordings ({patterns})</source>
        <translation>录音 ({patterns})</translation>
    </message>
    <message>
        <source>{count} file(s) with no speech were skipped.</source>
        <translation>已跳过 {count} 个没有语音的文件。</translation>
    </message>
    <message>
        <source>Corrections you had not exported were kept and are shown again: {names}.</source>
        <translation>您尚未导出的修改已保留，并重新显示：{names}。</translation>
    </message>
    <message>
        <source>No recording named like “{name}” was found next to it: use File → Open subtitles… to choose its recording.</source>
        <translation>在它旁边没有找到与“{name}”同名的录音：请用“文件 → 打开字幕…”来选择它的录音。</translation>
    </message>
    <message>
        <source>The model “{name}” is on this computer now: the files that needed it start again.</source>
        <translation>模型“{name}”已在这台电脑上：需要它的文件重新开始转写。</translation>
    </message>
</context>
<context>
    <name>Transcript</name>
    <message>
        <source>{start}–{end}: speech that could not be transcribed</source>
        <translation>{start}–{end}：未能转写的语音</translation>
    </message>
    <message>
        <source>The transcription server sent more text than anyone can say in that time; what went beyond it was left out (parts of the recording: {count}, the first at {start}).</source>
        <translation>转写服务器发来的文字超过了这段时间里任何人能说出的量；超出的部分已略去（涉及录音段数：{count}，第一段在 {start}）。</translation>
    </message>
    <message>
        <source>The transcription server sent impossible times; those lines were put in order inside their part of the recording, so their subtitles may show a little early or late (parts of the recording: {count}, the first at {start}).</source>
        <translation>转写服务器发来了不可能的时间；这些行已在所属的录音段内按顺序排好，因此它们的字幕可能会稍早或稍晚显示（涉及录音段数：{count}，第一段在 {start}）。</translation>
    </message>
</context>
<context>
    <name>TranscriptPanel</name>
    <message>
        <source>Change saved in the transcript.</source>
        <translation>修改已保存到转写文本中。</translation>
    </message>
    <message>
        <source>Search the transcript</source>
        <translation>搜索转写文本</translation>
    </message>
    <message>
        <source>Click a line to hear it; type, or double-click, to correct it.</source>
        <translation>单击一行可以试听；直接输入或双击即可修改。</translation>
    </message>
    <message>
        <source>Only lines with warnings</source>
        <translation>只显示有警告的行</translation>
    </message>
    <message>
        <source>Show only the lines whose subtitles will be hard to read: too fast, too short, too long or overlapping. Hover over a ⚠ line for the reason.</source>
        <translation>只显示字幕不易阅读的行：太快、太短、太长或重叠。把鼠标停在带 ⚠ 的行上可以看到原因。</translation>
    </message>
    <message>
        <source>&amp;Split line at the cursor</source>
        <translation>在光标处拆分行(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Merge with next line</source>
        <translation>与下一行合并(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Insert line</source>
        <translation>插入行(&amp;I)</translation>
    </message>
    <message>
        <source>&amp;Delete lines</source>
        <translation>删除行(&amp;D)</translation>
    </message>
    <message>
        <source>S&amp;hift times…</source>
        <translation>平移时间(&amp;H)…</translation>
    </message>
    <message>
        <source>Undo all &amp;glossary corrections</source>
        <translation>撤销全部术语表更正(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;Revert to the transcription</source>
        <translation>恢复为转写结果(&amp;R)</translation>
    </message>
    <message>
        <source>Put every line back as Whisper wrote it; Edit → Undo takes it back.</source>
        <translation>把每一行恢复为 Whisper 写出的样子；“编辑 → 撤销”可撤回。</translation>
    </message>
    <message>
        <source>&amp;Find and replace…</source>
        <translation>查找和替换(&amp;F)…</translation>
    </message>
    <message>
        <source>Select a file in the list to see its transcript.</source>
        <translation>在列表中选择一个文件，即可查看其转写文本。</translation>
    </message>
    <message>
        <source>No speech was found in “{name}”, so there is nothing to show or export.</source>
        <translation>“{name}”中没有发现语音，没有可显示或导出的内容。</translation>
    </message>
    <message>
        <source>Transcript of “{name}”</source>
        <translation>“{name}”的转写文本</translation>
    </message>
    <message>
        <source>Transcribing “{name}”…</source>
        <translation>正在转写“{name}”…</translation>
    </message>
    <message>
        <source>“{name}” has not been transcribed yet.</source>
        <translation>“{name}”尚未转写。</translation>
    </message>
    <message>
        <source>&amp;Undo {change}</source>
        <translation>撤销{change}(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo {change}</source>
        <translation>重做{change}(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>They can move up to {earlier} s earlier and any amount later.</source>
        <translation>最多可以提前 {earlier} 秒，推后多少都可以。</translation>
    </message>
    <message>
        <source>They can move up to {earlier} s earlier and {later} s later.</source>
        <translation>最多可以提前 {earlier} 秒、推后 {later} 秒。</translation>
    </message>
    <message>
        <source>Shift times</source>
        <translation>平移时间</translation>
    </message>
    <message>
        <source>Move the selected lines by this many seconds (negative: earlier):</source>
        <translation>将所选的行移动这么多秒（负数表示提前）：</translation>
    </message>
    <message>
        <source>Every line is back as Whisper wrote it. Edit → Undo brings back your corrections.</source>
        <translation>每一行都已恢复为 Whisper 写出的样子。“编辑 → 撤销”可恢复您的修改。</translation>
    </message>
    <message>
        <source>Undo glossary correction “{term}” → back to “{original}”</source>
        <translation>撤销术语表更正“{term}”→ 改回“{original}”</translation>
    </message>
    <message>
        <source>No spelling suggestions for “{word}”</source>
        <translation>没有“{word}”的拼写建议</translation>
    </message>
    <message>
        <source>Remember this voice as…</source>
        <translation>将此声音记为…</translation>
    </message>
    <message>
        <source>{found} of {total}</source>
        <translation>{found} / {total}</translation>
    </message>
</context>
<context>
    <name>TranscriptionOptions</name>
    <message>
        <source>The Whisper model: tiny … large-v3, turbo or an imported one; larger models are more accurate and slower.</source>
        <translation>Whisper 模型：tiny … large-v3、turbo 或导入的模型；模型越大越准确，也越慢。</translation>
    </message>
    <message>
        <source>The engine that decodes: Automatic (openai-whisper on a graphics card, faster-whisper on the processor) or one of the two.</source>
        <translation>解码所用的引擎：自动（显卡上用 openai-whisper，处理器上用 faster-whisper），或两者之一。</translation>
    </message>
    <message>
        <source>Where the model runs: Automatic (the graphics card when it works, else the processor), the graphics card or the processor.</source>
        <translation>模型在哪里运行：自动（显卡可用时用显卡，否则用处理器）、显卡或处理器。</translation>
    </message>
    <message>
        <source>The language spoken, as a code such as zh or en; auto: detected from the speech.</source>
        <translation>所说的语言，用 zh 或 en 这样的代码表示；auto：根据语音自动识别。</translation>
    </message>
    <message>
        <source>Transcribe the words as spoken, or translate them to English.</source>
        <translation>按原话转写，或翻译成英文。</translation>
    </message>
    <message>
        <source>Text that steers spelling and style, such as names and terms; for Mandarin VoxDesk&apos;s own sentence in Simplified Chinese when empty.</source>
        <translation>引导拼写和风格的文字，例如人名和术语；留空时，普通话使用 VoxDesk 自带的一句简体中文。</translation>
    </message>
    <message>
        <source>Hypotheses kept (beam size):</source>
        <translation>保留的候选数（束宽）：</translation>
    </message>
    <message>
        <source>How many hypotheses Whisper keeps while decoding.</source>
        <translation>Whisper 解码时保留多少个候选结果。</translation>
    </message>
    <message>
        <source>How Chinese transcripts are written: in simplified or traditional characters, or as Whisper recognised them.</source>
        <translation>中文转写文本使用简体字还是繁体字，或保持 Whisper 识别出的原样。</translation>
    </message>
    <message>
        <source>Label who speaks: off, auto (VoxDesk finds how many) or the number of speakers.</source>
        <translation>标注说话人：关闭、自动（由 VoxDesk 判断人数）或说话人的数目。</translation>
    </message>
    <message>
        <source>How many 30-second pieces of speech Whisper decodes together. Automatic fits the graphics card&apos;s free memory; 1 decodes one piece after another, as older versions did.</source>
        <translation>Whisper 一次同时解码多少段 30 秒的语音。“自动”按显卡的可用内存来定；1 表示逐段依次解码，与旧版本相同。</translation>
    </message>
    <message>
        <source>Decode only where speech is heard</source>
        <translation>只解码听到语音的部分</translation>
    </message>
    <message>
        <source>Decode only the speech voice activity detection hears.</source>
        <translation>只解码语音活动检测听到的语音。</translation>
    </message>
    <message>
        <source>Time every word</source>
        <translation>为每个词标注时间</translation>
    </message>
    <message>
        <source>Time every word, not only every segment.</source>
        <translation>为每个词标注时间，而不只是每一段。</translation>
    </message>
    <message>
        <source>Sampling temperature:</source>
        <translation>采样温度：</translation>
    </message>
    <message>
        <source>Sampling temperature; by default Whisper&apos;s fallback from 0.0 up to 1.0 in steps of 0.2.</source>
        <translation>采样温度；默认使用 Whisper 的回退方式，从 0.0 起每次加 0.2，直到 1.0。</translation>
    </message>
    <message>
        <source>Give each window the text before it</source>
        <translation>把前文作为每个窗口的提示</translation>
    </message>
    <message>
        <source>Give each 30-second window the text decoded before it as its prompt; off by default, as Whisper then repeats its own mistakes.</source>
        <translation>把之前识别出的文字作为每个 30 秒窗口的提示；默认关闭，因为这样 Whisper 会重复自己的错误。</translation>
    </message>
</context>
<context>
    <name>TranscriptionQueue</name>
    <message>
        <source>Starting…</source>
        <translation>正在开始…</translation>
    </message>
</context>
<context>
    <name>UserGuideDialog</name>
    <message>
        <source>VoxDesk user guide</source>
        <translation>VoxDesk 使用指南</translation>
    </message>
</context>
<context>
    <name>Verdict</name>
    <message>
        <source>the program that drives it is not installed</source>
        <translation>驱动它的程序没有安装</translation>
    </message>
    <message>
        <source>this user account is not yet allowed to use it</source>
        <translation>此用户帐户还没有使用它的权限</translation>
    </message>
    <message>
        <source>its driver software (ROCm) is missing or does not answer</source>
        <translation>它的驱动软件（ROCm）缺失或没有响应</translation>
    </message>
    <message>
        <source>the installed software has no support for this graphics card model</source>
        <translation>已安装的软件不支持这个型号的显卡</translation>
    </message>
    <message>
        <source>it failed a short test calculation</source>
        <translation>它没有通过一次简短的测试计算</translation>
    </message>
    <message>
        <source>VoxDesk cannot open recordings yet. Please show the rows below to your IT support; each one says how to fix it.</source>
        <translation>VoxDesk 还无法打开录音。请把下面各行给 IT 支持人员看，每一行都写明了修复方法。</translation>
    </message>
    <message>
        <source>Transcription works and uses the graphics card. {count} smaller points below could be improved.</source>
        <translation>转写可以使用，并且使用显卡。下面还有 {count} 个小问题可以改进。</translation>
    </message>
    <message>
        <source>Everything is ready: transcription uses the graphics card.</source>
        <translation>一切就绪：转写使用显卡。</translation>
    </message>
    <message>
        <source>it did not pass the checks below</source>
        <translation>它没有通过下面的检查</translation>
    </message>
    <message>
        <source>Transcription works, but slowly: the graphics card is not used, because {reason}.</source>
        <translation>转写可以使用，但速度较慢：没有使用显卡，因为{reason}。</translation>
    </message>
    <message>
        <source>Transcription works, on the processor (this computer has no graphics card VoxDesk can use). {count} points below could be improved.</source>
        <translation>转写可以使用，在处理器上运行（这台电脑没有 VoxDesk 可用的显卡）。下面有 {count} 个问题可以改进。</translation>
    </message>
    <message>
        <source>Everything is ready. Transcription runs on the processor, because this computer has no graphics card VoxDesk can use.</source>
        <translation>一切就绪。转写在处理器上运行，因为这台电脑没有 VoxDesk 可用的显卡。</translation>
    </message>
</context>
<context>
    <name>Video</name>
    <message>
        <source>A video with burned-in subtitles is saved as .mp4 or .mkv; “{name}” ends otherwise.</source>
        <translation>烧录字幕的视频保存为 .mp4 或 .mkv；“{name}”的扩展名不是这两种。</translation>
    </message>
    <message>
        <source>The quality setting must be between 0 (best) and 51; 18 looks like the source.</source>
        <translation>画质设置必须在 0（最好）到 51 之间；18 与原视频看起来一样。</translation>
    </message>
    <message>
        <source>{container} cannot hold this video&apos;s sound ({codec}) as it is. Save it as .mkv instead.</source>
        <translation>{container} 无法原样容纳此视频的声音（{codec}）。请改存为 .mkv。</translation>
    </message>
    <message>
        <source>The video cannot be saved over itself. Choose another name for the copy with subtitles.</source>
        <translation>不能用副本覆盖视频本身。请为带字幕的副本另取一个名字。</translation>
    </message>
    <message>
        <source>The picture is {width}×{height}; H.264 needs even sizes, so the new video is {new_width}×{new_height}.</source>
        <translation>画面为 {width}×{height}；H.264 需要偶数尺寸，因此新视频为 {new_width}×{new_height}。</translation>
    </message>
    <message>
        <source>The video is stored turned by {degrees}°; the new video is saved upright, so the subtitles read the right way up.</source>
        <translation>视频以旋转 {degrees}° 的方式存储；新视频按正向保存，字幕方向才会正确。</translation>
    </message>
    <message>
        <source>The picture is {depth}-bit ({format}); the new video is 8-bit 4:2:0, which every player shows.</source>
        <translation>画面为 {depth} 位（{format}）；新视频为 8 位 4:2:0，所有播放器都能播放。</translation>
    </message>
    <message>
        <source>The picture of “{name}” is damaged after {seconds} seconds, so the burned copy could not be finished.</source>
        <translation>“{name}”的画面在 {seconds} 秒之后已损坏，因此无法完成烧录副本。</translation>
    </message>
    <message>
        <source>“{value}” is not a subtitle {what}; choose one of {choices}.</source>
        <translation>“{value}”不是可用的字幕{what}；请从 {choices} 中选择。</translation>
    </message>
    <message>
        <source>“{name}” holds no subtitles.</source>
        <translation>“{name}”中没有字幕。</translation>
    </message>
    <message>
        <source>Every subtitle in “{name}” starts after the end of the video ({length}), so it probably belongs to another recording. Choose the transcript of this video.</source>
        <translation>“{name}”中的每条字幕都在视频结束（{length}）之后才开始，它可能属于另一段录音。请选择此视频的转写稿。</translation>
    </message>
    <message>
        <source>{count} subtitle(s) of “{name}” start after the video ends ({length}) and were left out; the other {kept} are in the file.</source>
        <translation>“{name}”中有 {count} 条字幕在视频结束（{length}）之后才开始，已略去；其余 {kept} 条已写入文件。</translation>
    </message>
    <message>
        <source>Choose at least one transcript to put into the video.</source>
        <translation>请至少选择一份要放入视频的转写稿。</translation>
    </message>
    <message>
        <source>Save it as MKV instead, which holds any picture and sound.</source>
        <translation>请改存为 MKV，它可以容纳任何画面和声音。</translation>
    </message>
    <message>
        <source>VoxDesk can save a video with subtitles as {kinds}; “{name}” ends otherwise. Give the file one of these endings.</source>
        <translation>VoxDesk 可以将带字幕的视频保存为 {kinds}；“{name}”的扩展名不在其中。请使用其中一种扩展名。</translation>
    </message>
    <message>
        <source>A {kind} stream of the video ({codec}) cannot go into {container} and was left out.</source>
        <translation>视频中的一条 {kind} 流（{codec}）无法放入 {container}，已略去。</translation>
    </message>
    <message>
        <source>“{code}” is not a language code. Write it as two letters, like zh for Chinese or en for English.</source>
        <translation>“{code}”不是语言代码。请写成两个字母，例如中文写 zh，英文写 en。</translation>
    </message>
    <message>
        <source>“{name}” is not there any more. Check that the video has not been moved or deleted.</source>
        <translation>“{name}”已不存在。请检查视频是否被移动或删除。</translation>
    </message>
    <message>
        <source>“{name}” could not be opened: check that it is still there and that you may read it.</source>
        <translation>无法打开“{name}”：请确认文件仍在原处，并且您有权读取它。</translation>
    </message>
    <message>
        <source>“{name}” is empty (0 bytes), so it holds no video.</source>
        <translation>“{name}”是空文件（0 字节），其中没有视频。</translation>
    </message>
    <message>
        <source>“{name}” has no picture, so there is nothing to put subtitles on. Choose the video file itself.</source>
        <translation>“{name}”没有画面，无处添加字幕。请选择视频文件本身。</translation>
    </message>
    <message>
        <source>VoxDesk cannot read “{name}” as a video. It may not be a video file, or it may be damaged.</source>
        <translation>VoxDesk 无法将“{name}”作为视频读取。它可能不是视频文件，或者已损坏。</translation>
    </message>
    <message>
        <source>The picture in “{name}” is in a format VoxDesk cannot decode, or it is damaged. Save the video as MP4 (H.264) with another program, then try again.</source>
        <translation>“{name}”的画面格式 VoxDesk 无法解码，或者画面已损坏。请用其他程序将视频另存为 MP4（H.264）后重试。</translation>
    </message>
    <message>
        <source>VoxDesk is not allowed to read “{name}”. Ask the file&apos;s owner for read permission, or copy the file to your own folder.</source>
        <translation>VoxDesk 没有读取“{name}”的权限。请向文件所有者申请读取权限，或把文件复制到您自己的文件夹。</translation>
    </message>
</context>
<context>
    <name>Video containers</name>
    <message>
        <source>{container} cannot hold this video&apos;s picture ({codec}) without converting it.</source>
        <translation>{container} 不转换就无法容纳此视频的画面（{codec}）。</translation>
    </message>
    <message>
        <source>{container} cannot hold this video&apos;s sound ({codec}) without converting it.</source>
        <translation>{container} 不转换就无法容纳此视频的声音（{codec}）。</translation>
    </message>
</context>
<context>
    <name>Video export</name>
    <message>
        <source>About {minutes} min {seconds} s left</source>
        <translation>大约还剩 {minutes} 分 {seconds} 秒</translation>
    </message>
</context>
<context>
    <name>VideoExportDialog</name>
    <message>
        <source>Export video with subtitles</source>
        <translation>导出带字幕的视频</translation>
    </message>
    <message>
        <source>Video: {name}</source>
        <translation>视频：{name}</translation>
    </message>
    <message>
        <source>Transcripts of this recording (each ticked one becomes a track; the first is the default):</source>
        <translation>此录音的转写稿（每个勾选的转写稿成为一条字幕轨，第一条为默认）：</translation>
    </message>
    <message>
        <source>Add a subtitle file…</source>
        <translation>添加字幕文件…</translation>
    </message>
    <message>
        <source>How the subtitles go in</source>
        <translation>字幕的加入方式</translation>
    </message>
    <message>
        <source>As subtitle tracks viewers can switch on and off (fast; the picture is copied as it is)</source>
        <translation>作为观众可开关的字幕轨（快速；画面原样复制）</translation>
    </message>
    <message>
        <source>Burned into the picture, for players and sites that show no tracks (the picture is re-encoded)</source>
        <translation>烧录到画面中，供不显示字幕轨的播放器和网站使用（画面重新编码）</translation>
    </message>
    <message>
        <source>Save as:</source>
        <translation>保存为：</translation>
    </message>
    <message>
        <source>How burned-in text looks</source>
        <translation>烧录文字的样式</translation>
    </message>
    <message>
        <source>Size:</source>
        <translation>大小：</translation>
    </message>
    <message>
        <source>Colour:</source>
        <translation>颜色：</translation>
    </message>
    <message>
        <source>Background:</source>
        <translation>背景：</translation>
    </message>
    <message>
        <source>Position:</source>
        <translation>位置：</translation>
    </message>
    <message>
        <source>Margin:</source>
        <translation>边距：</translation>
    </message>
    <message>
        <source>Quality:</source>
        <translation>画质：</translation>
    </message>
    <message>
        <source>Small</source>
        <translation>小</translation>
    </message>
    <message>
        <source>Medium</source>
        <translation>中</translation>
    </message>
    <message>
        <source>Large</source>
        <translation>大</translation>
    </message>
    <message>
        <source>White</source>
        <translation>白色</translation>
    </message>
    <message>
        <source>Yellow</source>
        <translation>黄色</translation>
    </message>
    <message>
        <source>Cyan</source>
        <translation>青色</translation>
    </message>
    <message>
        <source>Dark outline</source>
        <translation>深色描边</translation>
    </message>
    <message>
        <source>Dark box</source>
        <translation>深色底框</translation>
    </message>
    <message>
        <source>Bottom</source>
        <translation>底部</translation>
    </message>
    <message>
        <source>Top</source>
        <translation>顶部</translation>
    </message>
    <message>
        <source>Narrow</source>
        <translation>窄</translation>
    </message>
    <message>
        <source>Normal</source>
        <translation>标准</translation>
    </message>
    <message>
        <source>Wide</source>
        <translation>宽</translation>
    </message>
    <message>
        <source>Looks like the source</source>
        <translation>与原视频一样</translation>
    </message>
    <message>
        <source>Smaller file</source>
        <translation>文件更小</translation>
    </message>
    <message>
        <source>Best, larger file</source>
        <translation>最佳，文件更大</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Reading the video…</source>
        <translation>正在读取视频…</translation>
    </message>
    <message>
        <source>{container} (picture re-encoded as H.264)</source>
        <translation>{container}（画面重新编码为 H.264）</translation>
    </message>
    <message>
        <source>{container} (subtitles as {codec})</source>
        <translation>{container}（字幕为 {codec}）</translation>
    </message>
    <message>
        <source>MP4 cannot hold this video&apos;s sound as it is.</source>
        <translation>MP4 无法原样容纳此视频的声音。</translation>
    </message>
    <message>
        <source>Tick at least one transcript.</source>
        <translation>请至少勾选一份转写稿。</translation>
    </message>
    <message>
        <source>Only the first ticked transcript is burned in.</source>
        <translation>只烧录第一份勾选的转写稿。</translation>
    </message>
    <message>
        <source>Add a subtitle file</source>
        <translation>添加字幕文件</translation>
    </message>
    <message>
        <source>Subtitles (*.srt *.vtt)</source>
        <translation>字幕 (*.srt *.vtt)</translation>
    </message>
    <message>
        <source>Video: {name} ({width}×{height}, {minutes} min {seconds} s)</source>
        <translation>视频：{name}（{width}×{height}，{minutes} 分 {seconds} 秒）</translation>
    </message>
    <message>
        <source>Subtitles look like this 字幕效果</source>
        <translation>字幕效果如图所示</translation>
    </message>
    <message>
        <source>Save the video with subtitles as</source>
        <translation>将带字幕的视频保存为</translation>
    </message>
    <message>
        <source>Saving “{name}”…</source>
        <translation>正在保存“{name}”…</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>正在停止…</translation>
    </message>
    <message>
        <source>Saved “{name}”.</source>
        <translation>已保存“{name}”。</translation>
    </message>
    <message>
        <source>Stopped; nothing was saved.</source>
        <translation>已停止；没有保存任何内容。</translation>
    </message>
    <message>
        <source>The transcript open in the editor</source>
        <translation>编辑器中打开的转写稿</translation>
    </message>
</context>
<context>
    <name>VideoInEditor</name>
    <message>
        <source>Video</source>
        <translation>视频</translation>
    </message>
    <message>
        <source>Show or hide the video&apos;s picture beside the lines</source>
        <translation>在字幕行旁显示或隐藏视频画面</translation>
    </message>
</context>
<context>
    <name>VideoPanel</name>
    <message>
        <source>This video cannot be shown: {reason} The subtitles can still be edited.</source>
        <translation>无法显示此视频：{reason} 字幕仍可编辑。</translation>
    </message>
</context>
<context>
    <name>VoiceListPanel</name>
    <message>
        <source>Saved voices</source>
        <translation>已保存的声音</translation>
    </message>
    <message>
        <source>Play sample</source>
        <translation>播放样本</translation>
    </message>
    <message>
        <source>Rename…</source>
        <translation>重命名…</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>No voices yet. Add one on the “Add a voice” page.</source>
        <translation>还没有声音。请在“添加声音”页中添加。</translation>
    </message>
    <message>
        <source>{name} · {language} · added {date} (unusable)</source>
        <translation>{name} · {language} · 添加于 {date}（不可用）</translation>
    </message>
    <message>
        <source>{name} · {language} · added {date}</source>
        <translation>{name} · {language} · 添加于 {date}</translation>
    </message>
    <message>
        <source>Consent of {name}, {date}</source>
        <translation>{name} 的授权，{date}</translation>
    </message>
    <message>
        <source>Rename the voice</source>
        <translation>重命名声音</translation>
    </message>
    <message>
        <source>New name:</source>
        <translation>新名称：</translation>
    </message>
    <message>
        <source>Renamed to “{name}”.</source>
        <translation>已重命名为“{name}”。</translation>
    </message>
    <message>
        <source>Delete the voice?</source>
        <translation>删除这个声音？</translation>
    </message>
    <message>
        <source>Delete “{name}” with its recordings and consent record? This cannot be undone.</source>
        <translation>要删除“{name}”及其录音和授权记录吗？此操作无法撤销。</translation>
    </message>
    <message>
        <source>Deleted “{name}”.</source>
        <translation>已删除“{name}”。</translation>
    </message>
</context>
<context>
    <name>VoicePanel</name>
    <message>
        <source>Voice:</source>
        <translation>声音：</translation>
    </message>
    <message>
        <source>Choose a voice; “Preview” lets you hear it first.</source>
        <translation>选择一种音色；点“试听”可以先听一听。</translation>
    </message>
    <message>
        <source>Preview</source>
        <translation>试听</translation>
    </message>
    <message>
        <source>Hear a short sample of this voice</source>
        <translation>试听这种音色的简短示例</translation>
    </message>
</context>
<context>
    <name>VoiceQuality</name>
    <message>
        <source>a fraction of a second</source>
        <translation>不到一秒</translation>
    </message>
    <message>
        <source>about a second</source>
        <translation>大约一秒</translation>
    </message>
    <message>
        <source>{seconds:.0f} seconds</source>
        <translation>{seconds:.0f} 秒</translation>
    </message>
    <message>
        <source>{problem} {advice}</source>
        <translation>{problem}{advice}</translation>
    </message>
    <message>
        <source>This recording sounds like music rather than speech. Choose a recording of one person speaking, without music in the background.</source>
        <translation>这段录音听起来像音乐而不是说话。请选择一个人说话、没有背景音乐的录音。</translation>
    </message>
    <message>
        <source>The recording is silent: no voice could be heard.</source>
        <translation>录音中没有声音：听不到任何人声。</translation>
    </message>
    <message>
        <source>Choose a recording of someone speaking.</source>
        <translation>请选择有人说话的录音。</translation>
    </message>
    <message>
        <source>Check that the right microphone is chosen and not muted, then record again.</source>
        <translation>请确认选对了麦克风且没有静音，然后重新录音。</translation>
    </message>
    <message>
        <source>No voice stands out from the background sound in the recording.</source>
        <translation>录音中的人声被背景声音淹没了。</translation>
    </message>
    <message>
        <source>Choose a recording of one person speaking clearly.</source>
        <translation>请选择一个人清楚说话的录音。</translation>
    </message>
    <message>
        <source>Speak clearly towards the microphone, away from loud machines, then record again.</source>
        <translation>请对着麦克风清楚地说话，远离嘈杂的机器，然后重新录音。</translation>
    </message>
    <message>
        <source>The recording is only {length} long; at least {minimum:.0f} seconds of speech are needed.</source>
        <translation>录音只有{length}；至少需要 {minimum:.0f} 秒的语音。</translation>
    </message>
    <message>
        <source>Choose a longer recording.</source>
        <translation>请选择更长的录音。</translation>
    </message>
    <message>
        <source>Read more of the text, then record again.</source>
        <translation>请多读一些文字，然后重新录音。</translation>
    </message>
    <message>
        <source>The recording is {seconds:.0f} seconds long. It can be used, but {low:.0f} to {high:.0f} seconds make the voice sound much more like the speaker.</source>
        <translation>录音长 {seconds:.0f} 秒，可以使用；但录 {low:.0f} 到 {high:.0f} 秒，克隆出的声音会更像说话人。</translation>
    </message>
    <message>
        <source>The voice in the recording is too quiet to use.</source>
        <translation>录音中的人声太小，无法使用。</translation>
    </message>
    <message>
        <source>Choose a louder recording.</source>
        <translation>请选择声音更大的录音。</translation>
    </message>
    <message>
        <source>Move closer to the microphone or turn its volume up, then record again.</source>
        <translation>请靠近麦克风或调高音量，然后重新录音。</translation>
    </message>
    <message>
        <source>Parts of the recording are so loud that they are distorted.</source>
        <translation>录音中有部分声音太大，已经失真。</translation>
    </message>
    <message>
        <source>A cleaner recording will give a better voice.</source>
        <translation>录音越干净，克隆出的声音越好。</translation>
    </message>
    <message>
        <source>Move a little away from the microphone or turn its volume down, then record again.</source>
        <translation>请离麦克风稍远一些或调低音量，然后重新录音。</translation>
    </message>
    <message>
        <source>There is a lot of background noise in the recording, so the voice will not sound clean.</source>
        <translation>录音中背景噪音很大，克隆出的声音会不够干净。</translation>
    </message>
    <message>
        <source>A recording made in a quiet room will give a better voice.</source>
        <translation>在安静的房间里录音，效果会更好。</translation>
    </message>
    <message>
        <source>Record again in a quieter room, away from fans and open windows.</source>
        <translation>请在更安静的房间里重新录音，远离风扇和打开的窗户。</translation>
    </message>
    <message>
        <source>The recording has more silence than speech.</source>
        <translation>录音中的停顿比说话还多。</translation>
    </message>
    <message>
        <source>A recording with fewer pauses will give a better voice.</source>
        <translation>停顿越少的录音，克隆出的声音越好。</translation>
    </message>
    <message>
        <source>Read the text at a normal pace without long pauses, then record again.</source>
        <translation>请用正常语速朗读，不要长时间停顿，然后重新录音。</translation>
    </message>
    <message>
        <source>“{name}” is longer than {minutes:g} minutes, the most a voice sample can be. Cut 15 to 30 seconds of clear speech out of it and use that.</source>
        <translation>“{name}”超过 {minutes:g} 分钟，这是声音样本的最大长度。请从中剪出 15 到 30 秒清晰的语音来使用。</translation>
    </message>
    <message>
        <source>“{name}” is longer than {minutes:g} minutes, the most a consent recording can be. Record only the consent sentence being read, and use that recording.</source>
        <translation>“{name}”超过 {minutes:g} 分钟，这是同意录音的最大长度。请只录下朗读同意声明的部分，并使用那段录音。</translation>
    </message>
</context>
<context>
    <name>VoiceRemembering</name>
    <message>
        <source>Measuring {name}&apos;s voice…</source>
        <translation>正在测量{name}的声音…</translation>
    </message>
    <message>
        <source>{name}&apos;s voice is remembered ({seconds:.0f} s of speech): later recordings will name them.</source>
        <translation>已记住{name}的声音（{seconds:.0f} 秒语音）：以后的录音会标上这个名字。</translation>
    </message>
    <message>
        <source>The voice was not remembered: {reason}</source>
        <translation>未能记住这个声音：{reason}</translation>
    </message>
</context>
<context>
    <name>Voices</name>
    <message>
        <source>A recording of the voice “{name}” is missing, so the voice cannot be used. Delete the voice and add it again.</source>
        <translation>声音“{name}”的一段录音丢失，无法使用该声音。请删除后重新添加。</translation>
    </message>
    <message>
        <source>Give the voice a name, for example the speaker&apos;s name.</source>
        <translation>请为声音起个名字，例如说话人的姓名。</translation>
    </message>
    <message>
        <source>The name is too long. Use at most {count} characters.</source>
        <translation>名称太长。最多 {count} 个字符。</translation>
    </message>
    <message>
        <source>The name contains characters that cannot be shown. Type it again.</source>
        <translation>名称中含有无法显示的字符。请重新输入。</translation>
    </message>
    <message>
        <source>A voice can be saved for English or Chinese.</source>
        <translation>声音只能保存为英文或中文。</translation>
    </message>
    <message>
        <source>Record or import a voice sample first.</source>
        <translation>请先录制或导入声音样本。</translation>
    </message>
    <message>
        <source>The consent recording was checked for other recordings than the ones being saved. Check the consent again, then save.</source>
        <translation>授权录音核对时用的是另外的录音，而不是要保存的这些。请重新核对授权后再保存。</translation>
    </message>
    <message>
        <source>The consent record does not cover exactly these recordings. Check the consent again, then save.</source>
        <translation>授权记录与这些录音不完全对应。请重新核对授权后再保存。</translation>
    </message>
    <message>
        <source>VoxDesk could not delete the voice “{name}”. Check that the voice folder {root} is still available and writable, then try again.</source>
        <translation>VoxDesk 无法删除声音“{name}”。请确认声音文件夹 {root} 仍然可用且可写，然后重试。</translation>
    </message>
    <message>
        <source>VoxDesk could not find an unused code. Try again tomorrow.</source>
        <translation>VoxDesk 找不到未使用的验证码。请明天再试。</translation>
    </message>
    <message>
        <source>VoxDesk did not give out the code {code} (or it is older than {days} days). Ask for a new consent sentence, record it, and use the code it shows.</source>
        <translation>VoxDesk 没有发放过验证码 {code}（或已超过 {days} 天）。请生成新的授权声明并录制，使用其中显示的验证码。</translation>
    </message>
    <message>
        <source>The code {code} has already been used, perhaps a moment ago from another window or command; each code is good for one voice only. Ask for a new consent sentence, record it, and use the code it shows.</source>
        <translation>代码 {code} 已被使用（可能是刚刚在另一个窗口或命令中使用的）；每个代码只能用于一个声音。请获取新的同意声明，录下它，并使用它显示的代码。</translation>
    </message>
    <message>
        <source>VoxDesk cannot write to its voice folder {root}. Check that it is available and writable, then try again.</source>
        <translation>VoxDesk 无法写入声音文件夹 {root}。请确认它可用且可写，然后重试。</translation>
    </message>
    <message>
        <source>A voice called “{name}” already exists. Choose another name.</source>
        <translation>已有名为“{name}”的声音。请换一个名称。</translation>
    </message>
    <message>
        <source>A saved voice is damaged and cannot be read. Delete it and add it again.</source>
        <translation>有一个已保存的声音已损坏，无法读取。请删除后重新添加。</translation>
    </message>
    <message>
        <source>The voice “{name}” is no longer in the voice library; it may have been deleted outside VoxDesk. Choose another voice, or add it again.</source>
        <translation>声音“{name}”已不在声音库中，可能已在 VoxDesk 之外被删除。请选择其他声音，或重新添加。</translation>
    </message>
    <message>
        <source>the voice “{name}”</source>
        <translation>声音“{name}”</translation>
    </message>
</context>
<context>
    <name>Watermark</name>
    <message>
        <source>VoxDesk cannot load its watermark (resemble-perth), so it will not make or check cloned speech. Run the installer again (make setup), then try again.</source>
        <translation>VoxDesk 无法加载水印组件（resemble-perth），因此不会生成或检查克隆语音。请重新运行安装程序（make setup）后重试。</translation>
    </message>
</context>
<context>
    <name>WatermarkCheckDialog</name>
    <message>
        <source>Check for a VoxDesk watermark</source>
        <translation>检查 VoxDesk 水印</translation>
    </message>
    <message>
        <source>VoxDesk puts an inaudible watermark on every cloned voice and, unless it is turned off in Settings, on the speech it synthesizes. Choose recordings to find out whether they carry it.</source>
        <translation>VoxDesk 会在每个克隆的声音中加入听不见的水印；除非在设置中关闭，合成的语音中也会加入。选择录音即可查看其中是否带有水印。</translation>
    </message>
    <message>
        <source>Choose recordings…</source>
        <translation>选择录音…</translation>
    </message>
    <message>
        <source>Choose recordings to check</source>
        <translation>选择要检查的录音</translation>
    </message>
    <message>
        <source>Audio and video ({patterns});;All files (*)</source>
        <translation>音频和视频 ({patterns});;所有文件 (*)</translation>
    </message>
    <message>
        <source>checking…</source>
        <translation>正在检查…</translation>
    </message>
    <message>
        <source>carries VoxDesk&apos;s watermark</source>
        <translation>带有 VoxDesk 的水印</translation>
    </message>
    <message>
        <source>does not carry VoxDesk&apos;s watermark</source>
        <translation>不带 VoxDesk 的水印</translation>
    </message>
    <message>
        <source>too short to tell (under half a second)</source>
        <translation>太短，无法判断（不足半秒）</translation>
    </message>
    <message>
        <source>{name}: {verdict}</source>
        <translation>{name}：{verdict}</translation>
    </message>
</context>
<context>
    <name>Wheels</name>
    <message>
        <source>CTranslate2&apos;s ROCm wheel could not be installed ({why}), so faster-whisper keeps running on the processor. To try again, possibly from your company&apos;s mirror: {command}</source>
        <translation>无法安装 CTranslate2 的 ROCm 版（{why}），因此 faster-whisper 继续在处理器上运行。如需重试（也可以使用公司的镜像）：{command}</translation>
    </message>
    <message>
        <source>{variable} is not a SHA-256 checksum</source>
        <translation>{variable} 不是 SHA-256 校验值</translation>
    </message>
    <message>
        <source>the mirror has no checksum file for it</source>
        <translation>镜像上没有它的校验文件</translation>
    </message>
    <message>
        <source>the checksum could not be read</source>
        <translation>无法读取校验值</translation>
    </message>
    <message>
        <source>no checksum is published for it</source>
        <translation>没有公布它的校验值</translation>
    </message>
    <message>
        <source>the archive has no wheel for this Python</source>
        <translation>压缩包中没有适用于这个 Python 版本的安装包</translation>
    </message>
    <message>
        <source>CTranslate2 is not installed; install VoxDesk first.</source>
        <translation>未安装 CTranslate2；请先安装 VoxDesk。</translation>
    </message>
    <message>
        <source>This card ({target}) needs ROCm {needed} or later; ROCm {installed} is installed. Update ROCm, then run the installer again.</source>
        <translation>这块显卡（{target}）需要 ROCm {needed} 或更高版本；当前安装的是 ROCm {installed}。请更新 ROCm，然后再次运行安装程序。</translation>
    </message>
    <message>
        <source>{target} (Strix Halo) needs PyTorch built for ROCm 7.2.</source>
        <translation>{target}（Strix Halo）需要为 ROCm 7.2 构建的 PyTorch。</translation>
    </message>
    <message>
        <source>{target} (RDNA4) needs PyTorch built for ROCm 6.4.1 or later; VoxDesk uses the ROCm 7 build.</source>
        <translation>{target}（RDNA4）需要为 ROCm 6.4.1 或更高版本构建的 PyTorch；VoxDesk 使用 ROCm 7 版。</translation>
    </message>
    <message>
        <source>PyTorch built for ROCm 6.4, matching the installed ROCm {installed}.</source>
        <translation>为 ROCm 6.4 构建的 PyTorch，与已安装的 ROCm {installed} 匹配。</translation>
    </message>
    <message>
        <source>PyTorch built for ROCm 7.1.</source>
        <translation>为 ROCm 7.1 构建的 PyTorch。</translation>
    </message>
    <message>
        <source>No AMD graphics card found; faster-whisper runs on the processor.</source>
        <translation>未找到 AMD 显卡；faster-whisper 在处理器上运行。</translation>
    </message>
    <message>
        <source>CTranslate2 has no ROCm build for {target}; faster-whisper runs on the processor (the GPU still runs Whisper through PyTorch).</source>
        <translation>CTranslate2 没有适用于 {target} 的 ROCm 版；faster-whisper 在处理器上运行（GPU 仍通过 PyTorch 运行 Whisper）。</translation>
    </message>
    <message>
        <source>CTranslate2 {version} has no ROCm build (it starts with 4.7.0); faster-whisper runs on the processor.</source>
        <translation>CTranslate2 {version} 没有 ROCm 版（从 4.7.0 开始才有）；faster-whisper 在处理器上运行。</translation>
    </message>
    <message>
        <source>CTranslate2&apos;s ROCm build needs ROCm {needed} installed on this computer (found: {installed}); faster-whisper runs on the processor.</source>
        <translation>CTranslate2 的 ROCm 版需要这台电脑安装 ROCm {needed}（找到的是：{installed}）；faster-whisper 在处理器上运行。</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>CTranslate2 {version} for ROCm {rocm} on {target}.</source>
        <translation>适用于 {target} 的 CTranslate2 {version}（ROCm {rocm}）。</translation>
    </message>
</context>
</TS>
