
from desktop.controllers.project_controller import ProjectController

__all__ = ["ProjectController"]
