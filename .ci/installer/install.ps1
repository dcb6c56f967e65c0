# qiwang installer for Windows (published with each release as qiwang-installer.ps1;
# docs/install.md). It takes the Windows archive (qiwang-VERSION-x86_64-pc-windows-msvc.zip),
# checks it against its .sha256 file and installs nothing if they differ, then unpacks it
# into the install folder (default %LOCALAPPDATA%\Programs\qiwang, no administrator rights
# needed), adds that folder to the user's PATH and runs `qiwang --version`.
#
# Where the archive comes from, first match wins:
#   -From DIR   an archive and its .sha256 in DIR (offline); without -From, the
#               installer's own folder and the current folder are looked in first
#   -From URL   downloaded from URL/qiwang-VERSION-TARGET.zip
#   the release the installer was published with ($BaseUrl and $Version below are
#   written into the published copy by .ci/installers)
#
#   powershell -ExecutionPolicy Bypass -File qiwang-installer.ps1 [-Prefix DIR] [-From DIR|URL] [-Version V] [-Uninstall]
#
# 安装：右键“使用 PowerShell 运行”，或在 PowerShell 中运行上面的命令。
param(
    [string]$Prefix = "",
    [string]$From = "",
    [string]$Version = "",
    [switch]$Uninstall
)
$ErrorActionPreference = "Stop"

# Written by .ci/installers into the published copy; empty here.
$BaseUrl = ""
$DefaultVersion = ""

if (-not $Prefix) { $Prefix = Join-Path $env:LOCALAPPDATA "Programs\qiwang" }
if (-not $Version) { $Version = $DefaultVersion }
$Version = $Version.TrimStart("v")
$Target = "x86_64-pc-windows-msvc"

function Fail([string]$Message) {
    [Console]::Error.WriteLine("qiwang-installer: $Message")
    exit 1
}

function Set-UserPath([string]$Folder, [bool]$Present) {
    $path = [Environment]::GetEnvironmentVariable("Path", "User")
    $parts = @()
    if ($path) { $parts = $path.Split(";") | Where-Object { $_ -and ($_ -ne $Folder) } }
    if ($Present) { $parts += $Folder }
    [Environment]::SetEnvironmentVariable("Path", ($parts -join ";"), "User")
}

if ($Uninstall) {
    if (Test-Path $Prefix) { Remove-Item -Recurse -Force $Prefix }
    Set-UserPath $Prefix $false
    Write-Output "已卸载 qiwang / qiwang removed from $Prefix"
    exit 0
}

# An archive in folder $Dir (the exact version if one is given, else the newest by name).
function Find-Local([string]$Dir) {
    if (-not $Dir -or -not (Test-Path $Dir -PathType Container)) { return $null }
    if ($Version) {
        $candidate = Join-Path $Dir "qiwang-$Version-$Target.zip"
        if (Test-Path $candidate) { return $candidate }
        return $null
    }
    $found = Get-ChildItem -Path $Dir -Filter "qiwang-*-$Target.zip" -ErrorAction SilentlyContinue |
        Sort-Object Name | Select-Object -Last 1
    if ($found) { return $found.FullName }
    return $null
}

$work = Join-Path ([IO.Path]::GetTempPath()) ("qiwang-install-" + [Guid]::NewGuid())
New-Item -ItemType Directory -Path $work | Out-Null
try {
    function Get-Release([string]$Base) {
        if (-not $Version) { Fail "give the version to download with -Version V" }
        $name = "qiwang-$Version-$Target.zip"
        $zip = Join-Path $work $name
        [Net.ServicePointManager]::SecurityProtocol = [Net.SecurityProtocolType]::Tls12
        Invoke-WebRequest -UseBasicParsing -Uri "$Base/$name" -OutFile $zip
        Invoke-WebRequest -UseBasicParsing -Uri "$Base/$name.sha256" -OutFile "$zip.sha256"
        return $zip
    }

    $archive = $null
    if ($From -match "^https?://") {
        $archive = Get-Release $From.TrimEnd("/")
    } elseif ($From) {
        $archive = Find-Local $From
        if (-not $archive) { Fail "no archive for $Target in $From" }
    } else {
        foreach ($dir in @($PSScriptRoot, (Get-Location).Path)) {
            $archive = Find-Local $dir
            if ($archive) { break }
        }
        if (-not $archive) {
            if (-not $BaseUrl) { Fail "no qiwang archive here; give -From DIR or -From URL" }
            $archive = Get-Release $BaseUrl.TrimEnd("/")
        }
    }

    # The check: the archive's SHA-256 must be the one its .sha256 file names.
    $sumFile = "$archive.sha256"
    if (-not (Test-Path $sumFile)) { Fail "$sumFile is missing: not installing an unchecked archive" }
    $expected = ((Get-Content $sumFile -Raw).Trim() -split "\s+")[0].ToLowerInvariant()
    $actual = (Get-FileHash -Algorithm SHA256 -Path $archive).Hash.ToLowerInvariant()
    if (-not $expected -or $expected -ne $actual) {
        Fail "校验失败 / checksum mismatch for $(Split-Path $archive -Leaf): expected $expected, got $actual; nothing was installed"
    }
    Write-Output "校验通过 / checksum ok: $(Split-Path $archive -Leaf)"

    Expand-Archive -Path $archive -DestinationPath $work -Force
    $unpacked = Join-Path $work ([IO.Path]::GetFileNameWithoutExtension($archive))
    if (-not (Test-Path (Join-Path $unpacked "qiwang.exe"))) { Fail "the archive holds no qiwang.exe" }

    if (Test-Path $Prefix) { Remove-Item -Recurse -Force $Prefix }
    New-Item -ItemType Directory -Path $Prefix | Out-Null
    Copy-Item -Recurse -Path (Join-Path $unpacked "*") -Destination $Prefix
    Set-UserPath $Prefix $true
    $env:Path = "$env:Path;$Prefix"

    $installed = & (Join-Path $Prefix "qiwang.exe") --version
    if ($LASTEXITCODE -ne 0) { Fail "the installed program does not run on this system" }
    Write-Output "已安装 / installed: $installed -> $Prefix\qiwang.exe"
    Write-Output "已加入用户 PATH；请打开新的终端窗口 / added to your PATH; open a new terminal window"
    Write-Output "试一试 / try it: qiwang demo"
} finally {
    Remove-Item -Recurse -Force $work -ErrorAction SilentlyContinue
}
