import java.awt.Rectangle;
import java.awt.Robot;
import java.awt.Toolkit;
import java.io.File;
import javax.imageio.ImageIO;

/** {@code java bin/lib/Screenshot.java out.png}: the whole X display (an Xvfb one) as a PNG. */
public final class Screenshot {
    public static void main(String[] args) throws Exception {
        Rectangle screen = new Rectangle(Toolkit.getDefaultToolkit().getScreenSize());
        ImageIO.write(new Robot().createScreenCapture(screen), "png", new File(args[0]));
    }
}
