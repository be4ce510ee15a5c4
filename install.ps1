# pig installer for Windows: downloads pig-windows-x64.zip of the newest release (or -Version /
# $env:PIG_VERSION), checks its SHA-256 sum against the release's SHA256SUMS, and installs pig.exe
# into %LOCALAPPDATA%\pig\bin (or -Prefix / $env:PIG_INSTALL_DIR). A running pig.exe cannot be
# overwritten but can be renamed: the old one moves to pig.exe.old, the new one moves in, and the
# old one comes back if that fails.
#
#   powershell -c "irm https://github.com/pig-coding-agent/pig/releases/latest/download/install.ps1 | iex"
#   & ([scriptblock]::Create((irm …/install.ps1))) -Version 1.2.0 -Prefix C:\tools\pig
param(
  [string]$Version = $env:PIG_VERSION,
  [string]$Prefix = $env:PIG_INSTALL_DIR
)
$ErrorActionPreference = 'Stop'
Set-StrictMode -Version Latest

# Run through `irm … | iex`, `exit` would close the user's PowerShell window: a failure throws
# instead, and the script ends with the message and $LASTEXITCODE 1.
class PigInstallError : System.Exception { PigInstallError([string]$Message) : base($Message) {} }
function Fail([string]$Message) { throw [PigInstallError]::new($Message) }

function Install-Pig {
  $ReleaseUrl = if ($env:PIG_RELEASE_URL) { $env:PIG_RELEASE_URL.TrimEnd('/') } else { 'https://github.com/pig-coding-agent/pig/releases' }
  if ($Version) {
    $Version = $Version -replace '^v', ''
    if ($Version -notmatch '^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$') { Fail "-Version ${Version}: not a version (expected MAJOR.MINOR.PATCH, e.g. 1.2.0)" }
  }
  if (-not $Prefix) { $Prefix = Join-Path $env:LOCALAPPDATA 'pig\bin' }
  $Prefix = [System.IO.Path]::GetFullPath($Prefix)

  $Arch = $env:PROCESSOR_ARCHITEW6432
  if (-not $Arch) { $Arch = $env:PROCESSOR_ARCHITECTURE }
  # Windows on ARM runs x64 programs under emulation, so the x64 build serves it too.
  if ($Arch -ne 'AMD64' -and $Arch -ne 'ARM64') { Fail "unsupported platform: Windows $Arch (pig is released for Windows on x86-64)" }
  $Target = 'windows-x64'
  $Archive = "pig-$Target.zip"
  $Base = if ($Version) { "$ReleaseUrl/download/v$Version" } else { "$ReleaseUrl/latest/download" }

  # The user's own temp directory (%LOCALAPPDATA%\Temp), which other users cannot read.
  $Temp = Join-Path ([System.IO.Path]::GetTempPath()) ("pig-install-" + [System.Guid]::NewGuid().ToString('N'))
  New-Item -ItemType Directory -Path $Temp | Out-Null
  try {
    Write-Host "Installing $(if ($Version) { "pig $Version" } else { 'the newest pig' }) for $Target into $Prefix"
    [Net.ServicePointManager]::SecurityProtocol = [Net.ServicePointManager]::SecurityProtocol -bor [Net.SecurityProtocolType]::Tls12
    foreach ($File in @('SHA256SUMS', $Archive)) {
      try {
        Invoke-WebRequest -UseBasicParsing -Uri "$Base/$File" -OutFile (Join-Path $Temp $File)
      } catch {
        Fail "download failed: $Base/$File ($($_.Exception.Message))"
      }
    }

    $Expected = $null
    foreach ($Line in Get-Content (Join-Path $Temp 'SHA256SUMS')) {
      if ($Line -match '^([0-9a-fA-F]{64}) [ *](.+)$' -and $Matches[2] -eq $Archive) { $Expected = $Matches[1].ToLower() }
    }
    if (-not $Expected) { Fail "$Base/SHA256SUMS has no sum for $Archive" }
    $Actual = (Get-FileHash -Algorithm SHA256 (Join-Path $Temp $Archive)).Hash.ToLower()
    if ($Actual -ne $Expected) { Fail "wrong checksum for ${Archive}: SHA256SUMS says $Expected, the download is $Actual (nothing was installed)" }

    $Unpacked = Join-Path $Temp 'unpacked'
    try {
      Expand-Archive -Path (Join-Path $Temp $Archive) -DestinationPath $Unpacked
    } catch {
      Fail "corrupted archive ${Archive}: $($_.Exception.Message) (nothing was installed)"
    }
    $New = Join-Path $Unpacked 'pig.exe'
    if (-not (Test-Path -PathType Leaf $New)) { Fail "corrupted archive ${Archive}: it holds no pig.exe (nothing was installed)" }
    $Reported = (& $New --version | Select-Object -First 1)
    if ($LASTEXITCODE -ne 0) { Fail "the downloaded pig does not run on this machine: $Reported (nothing was installed)" }
    $Installed = "$Reported".Trim()
    if ($Version -and $Installed -ne $Version) { Fail "the downloaded pig says it is $Installed, not $Version (nothing was installed)" }

    try {
      New-Item -ItemType Directory -Force -Path $Prefix | Out-Null
    } catch {
      Fail "no write permission: cannot create $Prefix (choose another directory with -Prefix)"
    }
    $Dest = Join-Path $Prefix 'pig.exe'
    $Staged = Join-Path $Prefix ".pig.exe.new.$PID"
    try {
      Copy-Item $New $Staged
    } catch {
      Fail "no write permission on $Prefix, or it is full (nothing was installed)"
    }
    $Aside = "$Dest.old"
    if (Test-Path $Aside) { Remove-Item -Force $Aside -ErrorAction SilentlyContinue }
    if (Test-Path $Dest) { Move-Item -Force $Dest $Aside }
    try {
      Move-Item -Force $Staged $Dest
    } catch {
      if (Test-Path $Aside) { Move-Item -Force $Aside $Dest }
      Remove-Item -Force $Staged -ErrorAction SilentlyContinue
      Fail "could not move the new pig.exe into $Prefix (the old one is unchanged)"
    }

    # The receipt tells `pig update` that this installer put pig.exe here (see docs/install.md).
    $Receipt = [ordered]@{ installedBy = 'install.ps1'; binary = 'pig.exe'; target = $Target; version = $Installed; releaseUrl = $ReleaseUrl }
    $ReceiptPath = Join-Path $Prefix '.pig-install.json'
    ($Receipt | ConvertTo-Json) | Set-Content -Encoding UTF8 -Path "$ReceiptPath.new"
    Move-Item -Force "$ReceiptPath.new" $ReceiptPath

    Write-Host "Installed pig $Installed to $Dest"
    $UserPath = [Environment]::GetEnvironmentVariable('Path', 'User')
    if (-not (($UserPath -split ';') -contains $Prefix)) {
      [Environment]::SetEnvironmentVariable('Path', ($(if ($UserPath) { "$UserPath;" } else { '' }) + $Prefix), 'User')
      Write-Host "Added $Prefix to your user PATH; open a new terminal, then run: pig --help"
    } else {
      Write-Host 'Run: pig --help'
    }
  } finally {
    Remove-Item -Recurse -Force $Temp -ErrorAction SilentlyContinue
  }
}

try {
  Install-Pig
} catch [PigInstallError] {
  [Console]::Error.WriteLine("pig install: $($_.Exception.Message)")
  $global:LASTEXITCODE = 1
}
