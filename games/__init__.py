"""tabletune's game engines and their strategies (numpy/numba only; no tuning imports).

Every module of this top package is public: it is the framework a game is written against
(:mod:`games.core`, :mod:`games.registry`, :mod:`games.capabilities`, :mod:`games.options`,
:mod:`games.state`, ...). Below it, each package's ``__init__`` says what the package
offers; implementation modules are private by name (``_name.py``), and code outside a
package imports from the package, never from one of its private modules
(``tests/core/test_public_surface.py``).
"""
