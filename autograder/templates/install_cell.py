# Run this cell first. On Colab or ModelScope it installs the course helpers (torch is already there);
# on Binder or a local install everything is present and it does nothing.
import importlib.util, subprocess, sys
missing = [name for name in ("torch", "matplotlib", "ipywidgets") if importlib.util.find_spec(name) is None]
if missing:
    subprocess.check_call([sys.executable, "-m", "pip", "install", "--quiet", *missing])
if importlib.util.find_spec("attnlab") is None:
    subprocess.check_call([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                           "git+https://github.com/attention-lab/attention-lab"])
