"""Flask extensions, created once and bound in the app factory."""
from flask_babel import Babel
from flask_compress import Compress
from flask_htmx import HTMX
from flask_wtf.csrf import CSRFProtect

babel = Babel()
compress = Compress()
htmx = HTMX()
csrf = CSRFProtect()
